import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)), { args: "outer" });

describe("jump", () => {
  it("returns, lets the block finish, and moves the walk when the block ends", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("jump('## C')\nlog('after jump')\nvar.kept = 'yes'"),
      lua("log('next block never runs')"),
      "## B",
      lua("error('the jump target must skip this section')"),
      "## C",
      lua("return var.kept"),
    );
    expect(resultText(r)).toBe("yes");
    expect(r.port.checkpoints()).toEqual(["Lua: after jump"]);
  });

  it("takes the last jump of a block, and a return wins over a jump", async () => {
    const last = await run(
      "# T",
      "## A",
      lua("jump('## B')\njump('## C')"),
      "## B",
      lua("return 'B'"),
      "## C",
      lua("return 'C'"),
    );
    expect(resultText(last)).toBe("C");
    const ret = await run(
      "# T",
      "## A",
      lua("jump('## B')\nreturn 'A'"),
      "## B",
      lua("return 'B'"),
    );
    expect(resultText(ret)).toBe("A");
  });

  it("refuses bad targets catchably", async () => {
    const r = await run(
      "# T",
      "## A",
      lua(
        "local a, e1 = pcall(jump, '## Missing')\nlocal b, e2 = pcall(jump, 42)\nlocal c, e3 = pcall(jump, '### Hidden')\nreturn tostring(e1) .. '|' .. tostring(e2) .. '|' .. tostring(e3)",
      ),
      "## B",
      "### Hidden",
    );
    expect(resultText(r)).toBe(
      "section heading `## Missing` not found|section target must be a string|section heading `### Hidden` not found",
    );
  });

  it("fails the run as Lua when a bad jump is not caught", async () => {
    const error = failureOf(await run("# T", "## A", lua("jump('## Nowhere')")));
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toBe(
      "section `A` prologue:12: runtime error: section `A` prologue:12: section heading `## Nowhere` not found",
    );
  });
});

describe("call", () => {
  it("returns the called chain's result and leaves the caller's id alone", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("return call('### Sub') .. ' ' .. sys.id"),
      "### Sub",
      lua("return 'sub ' .. sys.id"),
    );
    expect(resultText(r)).toBe("sub 0.0.0 0.1");
  });

  it("returns nil when the chain ends with no return, bounded by the target's parent", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local got = call('### Sub')\nreturn tostring(got) .. ' ' .. table.concat(var.seen or {}, ',')",
      ),
      "### Sub",
      lua("log('sub')"),
      "### Tail",
      lua("log('tail')"),
      "## Other",
      lua("log('other must not run inside the call')"),
    );
    expect(resultText(r)).toBe("nil ");
    expect(r.port.checkpoints()).toEqual(["Lua: sub", "Lua: tail"]);
  });

  it("passes input as the callee's args, else the caller's args", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "return call('### Echo', 'inner') .. '|' .. call('### Echo') .. '|' .. call('### Echo', nil)",
      ),
      "### Echo",
      lua("return args"),
    );
    expect(resultText(r)).toBe("inner|outer|outer");
  });

  it("gives the callee a copy of var: its changes do not come back", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("var.n = 1\nlocal seen = call('### Bump')\nreturn seen .. ' ' .. var.n"),
      "### Bump",
      lua("var.n = var.n + 10\nreturn tostring(var.n)"),
    );
    expect(resultText(r)).toBe("11 1");
  });

  it("refuses bad arguments catchably", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local a, e1 = pcall(call, 42)\nlocal b, e2 = pcall(call, '## Missing')\nlocal c, e3 = pcall(call, '### Sub', 5)\nreturn tostring(e1) .. '|' .. tostring(e2) .. '|' .. tostring(e3)",
      ),
      "### Sub",
      lua("return 'x'"),
    );
    expect(resultText(r)).toBe(
      "section target must be a string|section heading `## Missing` not found|input must be a string, got integer",
    );
  });

  it("refuses nesting past 8, catchably, and ends the run as Quota when uncaught", async () => {
    const deep = await run(
      "# T",
      "## Main",
      lua("var.depth = 0\nreturn call('## Deeper')"),
      "## Deeper",
      lua(
        "var.depth = var.depth + 1\nlocal ok, err = pcall(call, '## Deeper')\nif ok then return err end\nreturn var.depth .. ' ' .. sys.id .. ' ' .. tostring(err)",
      ),
    );
    expect(resultText(deep)).toBe("8 0.0.0.0.0.0.0.0.0.0 call recursion exceeded cap of 8");
    const uncaught = failureOf(await run("# T", "## Main", lua("return call('## Main')")));
    expect(uncaught.kind).toBe("Quota");
    expect(uncaught.message).toBe("call recursion exceeded cap of 8");
  });

  it("ends the run when the called chain fails, and tears every VM down", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("local ok = pcall(call, '### Sub')\nlog('caller went on')\nreturn 'caught'"),
      "### Sub",
      lua("error('sub failed')"),
    );
    const error = failureOf(r);
    expect(headline(error)).toBe(
      "section `Sub` prologue:20: runtime error: section `Sub` prologue:20: sub failed",
    );
    expect(error.entry).toBe("0.0.0");
    expect(r.port.checkpoints()).toEqual([]);
    const types = r.port.types();
    expect(types.filter((t) => t === "teardown_succeeded")).toHaveLength(2);
    expect(types.at(-1)).toBe("run_finished");
  });

  it("keeps a jump inside the called chain, continuing its ids", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("return call('### Worker') .. ' ' .. sys.id"),
      "### Worker",
      lua("jump('### Next')"),
      "### Other",
      lua("error('skipped by the jump')"),
      "### Next",
      lua("return sys.id"),
    );
    expect(resultText(r)).toBe("0.0.1 0.1");
  });

  it("fails the run when the called chain returns a value with no text form", async () => {
    const error = failureOf(
      await run("# T", "## Main", lua("return call('### Sub')"), "### Sub", lua("return { 1 }")),
    );
    expect(error).toMatchObject({
      kind: "Lua",
      message: "cannot return a table as a result",
      entry: "0.0.0",
      section: "Sub",
    });
  });
});
