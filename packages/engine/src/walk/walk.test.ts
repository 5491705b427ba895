import { NO_RUN_USAGE as NO_USAGE } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { failureOf } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)));

describe("the walk", () => {
  it("falls through the top level, skipping child levels", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("log('A')"),
      "### A1",
      lua("log('A1')"),
      "## B",
      lua("log('B')"),
    );
    expect(resultText(r)).toBeNull();
    expect(r.port.checkpoints()).toEqual(["Lua: A", "Lua: B"]);
  });

  it("ends with no result when no section returns", async () => {
    const r = await run("# T", "## A", lua("var.x = 1"));
    expect(r.result).toEqual({
      outcome: "succeeded",
      result: null,
      var: { x: 1 },
      events: r.port.events.length,
      usage: NO_USAGE,
    });
  });

  it("enters a child level by jump, then falls through to its siblings and climbs", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("jump('### X')"),
      "### X",
      lua("log('X ' .. sys.id)"),
      "### Y",
      lua("log('Y ' .. sys.id)"),
      "## B",
      lua("return 'B ' .. sys.id"),
    );
    expect(resultText(r)).toBe("B 0.4");
    expect(r.port.checkpoints()).toEqual(["Lua: X 0.2", "Lua: Y 0.3"]);
  });

  it("counts a section with no Lua as an entry and passes var through it", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("var.n = 1"),
      "## Empty",
      "Only prose here.",
      "## C",
      lua("return sys.id .. ' ' .. var.n"),
    );
    expect(resultText(r)).toBe("0.3 1");
  });

  it("ends a section at a returning prologue: no later block runs", async () => {
    const r = await run(
      "# T",
      "## Finish",
      lua("log('finish started')\nreturn 'finished'"),
      "This prose is never read.",
      lua("log('unreachable epilog')"),
    );
    expect(resultText(r)).toBe("finished");
    expect(r.port.checkpoints()).toEqual(["Lua: finish started"]);
  });

  it("takes only the first returned value, and a number as its text", async () => {
    expect(resultText(await run("# T", "## A", lua("return 2, 'ignored'")))).toBe("2");
    expect(resultText(await run("# T", "## A", lua("return 2.5")))).toBe("2.5");
    expect(resultText(await run("# T", "## A", lua("return true")))).toBe("true");
  });

  it("goes on when a block returns nil", async () => {
    const r = await run("# T", "## A", lua("return nil"), "## B", lua("return 'B'"));
    expect(resultText(r)).toBe("B");
  });

  it("fails the run as Lua for a value with no text form", async () => {
    const error = failureOf(await run("# T", "## A", lua("return {}")));
    expect(error).toMatchObject({
      kind: "Lua",
      message: "cannot return a table as a result",
      entry: "0.1",
      section: "A",
    });
    const fn = failureOf(await run("# T", "## A", lua("return print or function() end")));
    expect(fn.message).toBe("cannot return a function as a result");
  });

  it("runs the H1 pass first and ends the run with an H1 return, skipping the walk", async () => {
    const r = await run(
      "# Title Demo",
      lua("return sys.section_name .. ' ' .. sys.id"),
      "## A",
      lua("log('walked')"),
    );
    expect(resultText(r)).toBe("Title Demo 0.0");
    expect(r.port.checkpoints()).toEqual([]);
  });

  it("starts the walk where an H1 jump points", async () => {
    const r = await run(
      "# T",
      lua("jump('## B')"),
      "## A",
      lua("return 'A'"),
      "## B",
      lua("return 'B ' .. sys.id"),
    );
    expect(resultText(r)).toBe("B 0.1");
  });

  it("hands the H1 var to the walk", async () => {
    const r = await run("# T", lua("var.from_h1 = 'yes'"), "## A", lua("return var.from_h1"));
    expect(resultText(r)).toBe("yes");
  });

  it("runs a prompt with no sections", async () => {
    expect(resultText(await run("# T", "Only a title."))).toBeNull();
  });
});
