import { describe, expect, it } from "vitest";
import { failureOf } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const declared = "args:\n  topic: { required: true }\n  depth: { default: 2 }\n";

describe("args and argv in a run", () => {
  it("reads args as a string, empty when the run got none", async () => {
    const text = promptText(body("# T", "## A", lua("return '[' .. args .. ']' .. type(args)")));
    expect(resultText(await runTestPrompt(text))).toBe("[]string");
    expect(resultText(await runTestPrompt(text, { args: "x y" }))).toBe("[x y]string");
  });

  it("derives argv from a JSON object, or gives the text to the first declared arg", async () => {
    const text = promptText(
      body("# T", "## A", lua("return argv.topic .. ' ' .. argv.depth")),
      declared,
    );
    expect(resultText(await runTestPrompt(text, { args: '{"topic":"tides","depth":5}' }))).toBe(
      "tides 5",
    );
    expect(resultText(await runTestPrompt(text, { args: "tides" }))).toBe("tides 2");
  });

  it("lets the H1 pass repair argv, field by field or whole, and freezes it after", async () => {
    const text = promptText(
      body(
        "# T",
        lua("argv.topic = argv.topic or 'fallback'\nargv.extra = 'h1'"),
        "## A",
        lua(
          "local ok, err = pcall(function() argv = { topic = 'late' } end)\nreturn argv.topic .. ' ' .. argv.extra .. ' ' .. tostring(err)",
        ),
      ),
      declared,
    );
    expect(resultText(await runTestPrompt(text))).toBe(
      "fallback h1 argv is frozen outside H1: assign it in H1 only",
    );
    const whole = promptText(
      body("# T", lua("argv = { topic = 'whole' }"), "## A", lua("return argv.topic")),
      declared,
    );
    expect(resultText(await runTestPrompt(whole))).toBe("whole");
  });

  it("fails the run as RequirementsUnmet when a required arg is still missing after H1", async () => {
    const text = promptText(body("# T", "## A", lua("return 'walked'")), declared);
    const run = await runTestPrompt(text);
    expect(failureOf(run)).toMatchObject({
      kind: "RequirementsUnmet",
      message: "argv is missing the required arg `topic`",
      entry: "0.0",
      section: "T",
    });
    const withH1 = promptText(
      body("# T", lua("argv.topic = nil"), "## A", lua("return 'walked'")),
      declared,
    );
    expect(failureOf(await runTestPrompt(withH1, { args: "given" })).message).toBe(
      "argv is missing the required arg `topic`",
    );
  });

  it("freezes argv as a sealed view that json.encode reads through", async () => {
    const text = promptText(
      body(
        "# T",
        "## A",
        lua(
          [
            "local ok, err = pcall(function() argv.topic = 'x' end)",
            "local ok2, err2 = pcall(function() argv.list[1] = 'x' end)",
            "local n = 0",
            "for _ in pairs(argv) do n = n + 1 end",
            "return table.concat({ tostring(err), tostring(err2), getmetatable(argv), n,",
            "  json.encode(argv), tostring(argv.gone == json.null), argv.list[2] }, '|')",
          ].join("\n"),
        ),
      ),
    );
    const run = await runTestPrompt(text, {
      args: '{"topic":"t","list":["a","b"],"empty":[],"gone":null}',
    });
    expect(resultText(run)).toBe(
      [
        "argv is frozen outside H1: assign it in H1 only",
        "argv is frozen outside H1: assign it in H1 only",
        "argv is sealed",
        "0",
        '{"empty":[],"gone":null,"list":["a","b"],"topic":"t"}',
        "true",
        "b",
      ].join("|"),
    );
  });

  it("keeps argv out of reach of a raw read and of an author _G metatable", async () => {
    const text = promptText(
      body(
        "# T",
        "## A",
        lua(
          "setmetatable(_G, { __index = function() return 'author' end })\nreturn tostring(argv.topic) .. '|' .. tostring(rawget)",
        ),
      ),
    );
    expect(resultText(await runTestPrompt(text, { args: '{"topic":"t"}' }))).toBe("t|author");
  });

  it("fails the gate when H1 leaves argv holding something that is not JSON data", async () => {
    const text = promptText(body("# T", lua("argv.f = function() end"), "## A", lua("return 'x'")));
    const error = failureOf(await runTestPrompt(text));
    expect(error.kind).toBe("RequirementsUnmet");
    expect(error.message).toBe("argv.f must be JSON data, got function");
    const scalar = promptText(body("# T", lua("argv = 5"), "## A", lua("return 'x'")));
    expect(failureOf(await runTestPrompt(scalar)).message).toBe(
      "argv must be a table of named fields",
    );
  });

  it("freezes argv in a chain the H1 pass calls", async () => {
    const text = promptText(
      body(
        "# T",
        lua("return call('## Probe')"),
        "## Probe",
        lua("local ok, err = pcall(function() argv = {} end)\nreturn tostring(err)"),
      ),
    );
    expect(resultText(await runTestPrompt(text))).toBe(
      "argv is frozen outside H1: assign it in H1 only",
    );
  });

  it("shows a called chain argv as the H1 pass has repaired it so far, frozen", async () => {
    const text = promptText(
      body(
        "# T",
        lua(
          "argv.n = 3\nargv.list = { 'a' }\nlocal seen = call('## Probe')\nargv.n = 4\nvar.seen = seen",
        ),
        "## Main",
        lua("return var.seen .. '|' .. argv.n"),
        "## Probe",
        lua(
          "local nested = call('## Deeper')\nlocal ok = pcall(function() argv.n = 9 end)\nreturn argv.n .. ',' .. argv.list[1] .. ',' .. nested .. ',' .. tostring(ok)",
        ),
        "## Deeper",
        lua("return tostring(argv.n)"),
      ),
    );
    expect(resultText(await runTestPrompt(text))).toBe("3,a,3,false|4");
  });

  it("refuses a call from the H1 pass while argv is not JSON data", async () => {
    const text = promptText(
      body(
        "# T",
        lua(
          "argv.f = function() end\nlocal ok, err = pcall(call, '## P')\nargv.f = nil\nvar.err = err.kind .. '|' .. tostring(err)",
        ),
        "## Main",
        lua("return var.err"),
        "## P",
        lua("return 'ran'"),
      ),
    );
    expect(resultText(await runTestPrompt(text))).toBe(
      "lua|argv.f must be JSON data, got function",
    );
  });
});
