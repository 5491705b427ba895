// The run cases of /work/shared/conformance/lua/12-error-line-numbers.yaml (the parse-error cases
// belong to the parser).

import type { RunError } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt, type TestRun } from "../test-support/run-prompt";

function failure(run: TestRun): RunError {
  if (run.result.outcome !== "failed")
    throw new Error(`expected a failed run, got ${run.result.outcome}`);
  return run.result.error;
}

const firstLine = (error: RunError): string => error.message.split("\n")[0] ?? "";

const verifyAnswer = promptText(
  body(
    "# Verify answer",
    "## Check",
    lua("local answer = 'no'\nif answer ~= 'yes' then\n  error('the answer must be yes')\nend"),
  ),
);

const libFault = promptText(
  body(
    "# Lib fault",
    "## Main",
    lua("require '## lib'\nboom()"),
    "## lib",
    lua("function boom()\n  error('deep fault')\nend"),
  ),
);

const filler = Array.from(
  { length: 20 },
  (_, i) => `Filler line ${i + 1} after the main block.`,
).join("\n");

describe("12-error-line-numbers", () => {
  it("verify-answer points at the absolute prompt line of the error call", async () => {
    const error = failure(await runTestPrompt(verifyAnswer));
    expect(error.kind).toBe("Lua");
    expect(firstLine(error)).toBe(
      "section `Check` prologue:14: runtime error: section `Check` prologue:14: the answer must be yes",
    );
  });

  it("verify-answer carries a mapped stack traceback and no raw chunk markers", async () => {
    const error = failure(await runTestPrompt(verifyAnswer));
    expect(error.message).toMatch(
      /^(?![\s\S]*\[string ")[\s\S]*stack traceback:[\s\S]*section `Check` prologue:14: in/,
    );
  });

  it("a prologue failure on its second line reports that line", async () => {
    const text = promptText(
      "# Work prologue\n\n## Work\n```lua\nassert(false)\n```\n\nThe prose after the prologue.\n",
    );
    const error = failure(await runTestPrompt(text));
    expect(firstLine(error)).toBe(
      "section `Work` prologue:11: runtime error: section `Work` prologue:11: assertion failed!",
    );
  });

  it("an epilog failure reports its own line", async () => {
    const error = failure(
      await runTestPrompt(
        promptText(body("# Check epilog", "## Check", "Check the answer.", lua("assert(false)"))),
      ),
    );
    expect(firstLine(error)).toBe(
      "section `Check` epilog:14: runtime error: section `Check` epilog:14: assertion failed!",
    );
  });

  it("the third of four blocks reports its own line", async () => {
    const text = promptText(
      "# Four blocks\n\n## S\n```lua\nvar.step = 1\n```\n\nFirst prose.\n\n```lua\nvar.step = 2\n```\n\nSecond prose.\n\n```lua\nvar.step = 3\nassert(false)\n```\n\nThird prose.\n\n```lua\nreturn 'unreached'\n```\n",
    );
    const error = failure(await runTestPrompt(text));
    expect(error.message).toMatch(
      /^section `S` [^:`]+:24: runtime error: section `S` [^:`]+:24: assertion failed!/,
    );
  });

  it("a block under the H1 title fails the gate with the Lua line as its cause", async () => {
    const text = promptText(
      "# T\n```lua\nassert(false)\n```\n\n## Main\n\n```lua\nreturn 'walked'\n```\n",
    );
    const run = await runTestPrompt(text);
    const error = failure(run);
    expect(error.kind).toBe("RequirementsUnmet");
    expect(error.message).toBe("the H1 gate of `T` failed");
    expect(error.causes[0]).toContain(":9: assertion failed!");
    expect(error.causes[0]?.split("\n")[0]).toBe(
      "H1 `T` lua:9: runtime error: H1 `T` lua:9: assertion failed!",
    );
    expect(run.port.events.some((e) => e.type === "section_entered" && e.section === "Main")).toBe(
      false,
    );
  });

  it("a block deep in a long prompt reports its exact line", async () => {
    const lines = Array.from({ length: 99 }, (_, i) => `Filler line ${i + 1} of the deep section.`);
    const text = promptText(
      body("# Deep block", "## Deep", lines.join("\n"), lua("local depth = 'deep'\nassert(false)")),
    );
    expect(firstLine(failure(await runTestPrompt(text)))).toBe(
      "section `Deep` epilog:113: runtime error: section `Deep` epilog:113: assertion failed!",
    );
  });

  it("a caught runtime error keeps Lua's own block marker", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Raw marker",
          "## Main",
          lua("local ok, err = pcall(function() error('raw') end)\nreturn err"),
        ),
      ),
    );
    expect(resultText(run)).toBe('[string "line 12"]:1: raw');
  });

  it("a long section name appears in full in the location", async () => {
    const text = promptText(
      body("# Long name", "## Gather Background Research Notes", lua("error('notes missing')")),
    );
    expect(firstLine(failure(await runTestPrompt(text)))).toBe(
      "section `Gather Background Research Notes` prologue:12: runtime error: section `Gather Background Research Notes` prologue:12: notes missing",
    );
  });

  it("a section sharing its name is labeled with its heading line", async () => {
    const text = promptText(
      body(
        "# Shared helpers",
        "## A",
        lua("return call('### Helpers')"),
        "### Helpers",
        lua("error('first helpers failed')"),
        "## B",
        lua("return call('### Helpers')"),
        "### Helpers",
        lua("error('second helpers failed')"),
      ),
    );
    const error = failure(await runTestPrompt(text));
    expect(error.kind).toBe("Lua");
    expect(error.message).toContain(
      "section `Helpers` (line 15) prologue:18: first helpers failed",
    );
  });

  it("the second section sharing a name is labeled with its own heading line", async () => {
    const text = promptText(
      body(
        "# Shared helpers",
        "## A",
        lua("var.skipped_first = true"),
        "### Helpers",
        lua("error('first helpers failed')"),
        "## Helpers",
        lua("error('second helpers failed')"),
      ),
    );
    expect(firstLine(failure(await runTestPrompt(text)))).toBe(
      "section `Helpers` (line 21) prologue:24: runtime error: section `Helpers` (line 21) prologue:24: second helpers failed",
    );
  });

  it("a section with a unique name gets no line number in its label", async () => {
    const text = promptText(
      body(
        "# Shared helpers",
        "## A",
        lua("var.a = true"),
        "### Helpers",
        lua("error('first helpers failed')"),
        "## B",
        lua("var.b = true"),
        "### Helpers",
        lua("error('second helpers failed')"),
        "## C",
        lua("error('c failed')"),
      ),
    );
    expect(firstLine(failure(await runTestPrompt(text)))).toBe(
      "section `C` prologue:36: runtime error: section `C` prologue:36: c failed",
    );
  });

  it("lib-fault points at the raise inside the library", async () => {
    expect(firstLine(failure(await runTestPrompt(libFault)))).toBe(
      "section `lib` prologue:20: runtime error: section `lib` prologue:20: deep fault",
    );
  });

  it("lib-fault's traceback maps the library frame and the calling frame", async () => {
    expect(failure(await runTestPrompt(libFault)).message).toMatch(
      /section `lib` prologue:20: in[\s\S]*section `Main` prologue:13: in/,
    );
  });

  it("a raise during a library's load reports the library line", async () => {
    const text = promptText(
      body(
        "# Load fault",
        "## Main",
        lua("require '## lib'\nreturn 'unreached'"),
        "## lib",
        lua("error('load fault')"),
      ),
    );
    const run = await runTestPrompt(text);
    expect(failure(run).message).toContain("section `lib` prologue:19: load fault");
    expect(run.port.types().filter((t) => t.startsWith("library_load"))).toEqual([
      "library_load_started",
      "library_load_failed",
    ]);
  });

  it("a raise on the fourth line of a library load reports that line", async () => {
    const text = promptText(
      body(
        "# Load fault 43",
        "## Main",
        lua("require '## lib'\nreturn 'unreached'"),
        filler,
        "## lib",
        lua("local a = 1\nlocal b = 2\nlocal c = 3\nerror('load fault')"),
      ),
    );
    expect(failure(await runTestPrompt(text)).message).toContain(
      "section `lib` prologue:43: load fault",
    );
  });

  it("a raise from a library function called after the load reports the function's line", async () => {
    const text = promptText(
      body(
        "# Later fault",
        "## Main",
        lua("require '## lib'\nlater()"),
        filler,
        "## lib",
        lua("function later()\n  error('later fault')\nend"),
      ),
    );
    expect(firstLine(failure(await runTestPrompt(text)))).toBe(
      "section `lib` prologue:41: runtime error: section `lib` prologue:41: later fault",
    );
  });

  it("a raise in a later library block maps to that block", async () => {
    const text = promptText(
      body(
        "# Lib blocks",
        "## Main",
        lua("require '## lib'\nreturn 'unreached'"),
        "## lib",
        lua("first = 1"),
        lua("second = 2"),
        lua("error('second fault')"),
        lua("fourth = 4"),
      ),
    );
    expect(failure(await runTestPrompt(text)).message).toContain(
      "section `lib` lua 3:27: second fault",
    );
  });

  it("a lua error value leaving a block names the block and an absolute line", async () => {
    const text = promptText(
      body(
        "# Value leaves",
        "## Test",
        lua("local ok, err = pcall(function() return sys.nothing end)\nerror(err)"),
      ),
    );
    const error = failure(await runTestPrompt(text));
    expect(error.kind).toBe("Lua");
    expect(error.message).toMatch(
      /section `Test` prologue:1[23]: [\s\S]*unknown sys field 'nothing'/,
    );
  });
});
