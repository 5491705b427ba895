import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";
import REQUIRE_LUA from "./require.lua";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)));

describe("require", () => {
  it("refuses stock modules and loads nothing (own-require)", async () => {
    const r = await run(
      "# Own require",
      lua(
        "local ok = pcall(require, 'os')\nreturn type(require) .. '|' .. tostring(ok) .. '|' .. tostring(os) .. '|' .. tostring(package)",
      ),
    );
    expect(resultText(r)).toBe("function|false|nil|nil");
  });

  it("words its refusals", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local _, a = pcall(require, 'os')\nlocal _, b = pcall(require, '## nope')\nlocal _, c = pcall(require, 7)\nreturn tostring(a) .. '|' .. tostring(b) .. '|' .. tostring(c)",
      ),
    );
    expect(resultText(r)).toBe(
      "require takes a section heading such as `## lib`, got `os`|section heading `## nope` not found|section target must be a string",
    );
  });

  it("loads once per entry, returns the library's value, and reports one pair of events", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local a = require '## lib'\nlocal b = require '## lib'\nreturn tostring(a == b) .. ' ' .. a.greet('x') .. ' ' .. loads",
      ),
      "## lib",
      lua("loads = (loads or 0) + 1\nreturn { greet = function(n) return 'hi ' .. n end }"),
      lua("error('a block after a returning block never runs')"),
    );
    expect(resultText(r)).toBe("true hi x 1");
    expect(
      r.port.events
        .filter((e) => e.type.startsWith("library_load"))
        .map((e) => [e.type, e.section]),
    ).toEqual([
      ["library_load_started", "Main"],
      ["library_load_succeeded", "Main"],
    ]);
    const started = r.port.events.find((e) => e.type === "library_load_started");
    expect(started).toMatchObject({ library: "## lib", entry: "0.1" });
  });

  it("returns true for a library that returns nothing, and loads again in a new entry", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("var.first = tostring(require '## lib')"),
      "## B",
      lua("require '## lib'\nreturn var.first .. ' ' .. tostring(lib_loaded)"),
      "## lib",
      lua("lib_loaded = true"),
    );
    expect(resultText(r)).toBe("true true");
    expect(r.port.types().filter((t) => t === "library_load_started")).toHaveLength(2);
  });

  it("lets pcall catch a failing load, and retries it with a fresh pair of events", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local ok1, e1 = pcall(require, '## broken')\nlocal ok2 = pcall(require, '## broken')\nreturn tostring(ok1) .. tostring(ok2) .. ' ' .. tostring(tostring(e1):match('fault: .*$'))",
      ),
      "## broken",
      lua("error('fault: bad text')"),
    );
    expect(resultText(r)).toBe("falsefalse fault: bad text");
    expect(r.port.types().filter((t) => t.startsWith("library_load"))).toEqual([
      "library_load_started",
      "library_load_failed",
      "library_load_started",
      "library_load_failed",
    ]);
  });

  it("refuses a cycle", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("local ok, err = pcall(require, '## a')\nreturn tostring(err)"),
      "## a",
      lua("require '## b'"),
      "## b",
      lua("require '## a'"),
    );
    expect(resultText(r)).toBe("require cycle: `## a` is still loading");
  });

  it("runs a library in the requiring VM, which can make suspending calls while it loads", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("require '## lib'\nreturn loaded_text .. ' ' .. sys.section_name"),
      "## lib",
      lua("store.write('lib.txt', 'from lib')\nloaded_text = store.read('lib.txt')"),
    );
    expect(resultText(r)).toBe("from lib Main");
  });

  it("fails the H1 gate when an H1 library raises", async () => {
    const error = failureOf(
      await run("# Gate", lua("require '## lib'"), "## lib", lua("error('no')")),
    );
    expect(error.kind).toBe("RequirementsUnmet");
    expect(headline({ ...error, message: error.causes[0] ?? "" })).toBe(
      "section `lib` prologue:16: runtime error: section `lib` prologue:16: no",
    );
  });
  it("shows its frame in a traceback as runvil/require.lua with the file's own lines", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("require '## lib'"),
      "## lib",
      lua("local x = nil\nreturn x.y"),
    );
    const lines = REQUIRE_LUA.split("\n");
    const defined = lines.indexOf("return function(target)") + 1;
    const loads = lines.findIndex((line) => line.includes("load(blocks[i]")) + 1;
    expect(defined).toBeGreaterThan(0);
    expect(loads).toBeGreaterThan(defined);
    expect(failureOf(r).message).toContain(
      `\tsection \`lib\` prologue:19: in main chunk\n\trunvil/require.lua:${loads}: in function <runvil/require.lua:${defined}>\n`,
    );
  });
});
