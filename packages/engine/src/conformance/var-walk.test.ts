// The walk-related cases of /work/shared/conformance/lua/04-var.yaml.
import { describe, expect, it } from "vitest";
import { failureOf } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

describe("04-var (walk)", () => {
  it("greeting keeps a value in var and reads it back", async () => {
    const run = await runTestPrompt(
      promptText(
        body("# Greeting", "## Main", lua("var.greeting = 'hi there'\nreturn var.greeting")),
      ),
    );
    expect(resultText(run)).toBe("hi there");
    expect(run.result.var).toEqual({ greeting: "hi there" });
  });

  it("trail passes a value to the next section through var", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Trail",
          "## First",
          lua("note = 'kept only here'\nvar.trail = 'ab'"),
          "## Second",
          lua("assert(note == nil)\nreturn var.trail .. 'c'"),
        ),
      ),
    );
    expect(resultText(run)).toBe("abc");
    expect(run.result.var).toEqual({ trail: "ab" });
  });

  it("phases reads a var field set in the prologue from the epilog", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Phases",
          "## Main",
          lua("var.phase = 'prologue'"),
          "Prose between the two blocks.",
          lua("return var.phase .. '-epilog'"),
        ),
      ),
    );
    expect(resultText(run)).toBe("prologue-epilog");
    expect(run.result.var).toEqual({ phase: "prologue" });
  });

  it("executions counts in two H1 blocks and reads the count in a section", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Executions",
          lua("var.executions = (var.executions or 0) + 1"),
          "Count a second time.",
          lua("var.executions = var.executions + 1"),
          "## Result",
          lua("return 'count:' .. var.executions"),
        ),
      ),
    );
    expect(resultText(run)).toBe("count:2");
    expect(run.result.var).toEqual({ executions: 2 });
  });

  it("greet shows a var value in prose", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Greet",
          "## Main",
          lua("var.greeting = 'hi there'"),
          "Say {{ var.greeting }} to the reader.",
          lua("return prose"),
        ),
      ),
    );
    expect(resultText(run)).toBe("Say hi there to the reader.");
  });

  it("a prompt without H1 blocks starts its walk with an empty var", async () => {
    const run = await runTestPrompt(
      promptText(body("# Empty start", "## Main", lua("return json.encode(var)"))),
    );
    expect(resultText(run)).toBe("{}");
  });

  it("an uncaught non-JSON var write fails the run as Lua", async () => {
    const run = await runTestPrompt(
      promptText(
        body("# Guard uncaught", "## Main", lua("var.f = function() end\nreturn 'unreached'")),
      ),
    );
    const error = failureOf(run);
    expect(error.kind).toBe("Lua");
    expect(error.message).toContain("var.f must be JSON data, got function");
  });

  it("reassigning the var global fails the read-back", async () => {
    const run = await runTestPrompt(
      promptText(body("# Var reassigned", "## Main", lua("var = { a = 1 }\nreturn 'done'"))),
    );
    expect(failureOf(run)).toMatchObject({
      kind: "Lua",
      message: "the `var` global was reassigned; write `var.<field>` instead",
      entry: "0.1",
    });
  });

  it("reassigning the var global in the H1 pass fails as Lua, not RequirementsUnmet", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Var reassigned H1",
          lua("var = { a = 1 }\nreturn 'early'"),
          "## Main",
          lua("return 'walked'"),
        ),
      ),
    );
    const error = failureOf(run);
    expect(error.kind).toBe("Lua");
    expect(error.message).toContain("the `var` global was reassigned; write `var.<field>` instead");
  });

  it("var holds JSON data and reads back as JSON, integers and floats apart", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Greeting",
          "## Main",
          lua(
            "var.n = 1\nvar.s = 'x'\nvar.t = { a = { 1, 2 } }\nvar.b = true\nvar.f = 1.5\nvar.items = json.array()",
          ),
          "## Next",
          lua("return math.type(var.n) .. ' ' .. math.type(var.f)"),
        ),
      ),
    );
    expect(resultText(run)).toBe("integer float");
    expect(run.result.var).toEqual({ n: 1, s: "x", t: { a: [1, 2] }, b: true, f: 1.5, items: [] });
  });
});
