import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { resultText } from "../test-support/run-prompt";
import { runPreludeCase, USER_INPUT_PRELUDE } from "./test-support";

describe("installPackPreludes in a run", () => {
  it("fails before the H1 pass issues any effect, as Lua (not the H1 gate), after teardown", async () => {
    const run = await runPreludeCase({
      body: body(
        "# Gate",
        lua("store.write('h1.txt', 'x')"),
        "## Only",
        lua("return 'unreachable'"),
      ),
      preludes: { helper: "error('boom', 0)" },
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "Lua",
        message:
          "Pack `helper`: its prelude failed to load: boom. A prelude only defines functions; it must not call tools while loading.\nstack traceback:\n\t[C]: in function 'error'\n\tpack:helper:1: in main chunk",
        causes: [],
        section: "Gate",
      },
    });
    expect(run.port.requests).toEqual([]);
    expect(run.port.types()).toEqual([
      "run_started",
      "section_entered",
      "teardown_started",
      "teardown_succeeded",
      "run_finished",
    ]);
  });

  it("fails on a global two preludes define, naming the later and the earlier Pack", async () => {
    const run = await runPreludeCase({
      body: body("# Clash", "## Only", lua("return 'unreachable'")),
      preludes: { alpha: "shared = 1", beta: "shared = 2" },
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "Lua",
        message:
          "Pack `beta`: its prelude defines the global `shared`, which Pack `alpha`'s prelude already defines",
      },
    });
  });

  it("installs afresh in every section VM: top-level code runs again, state never carries", async () => {
    const helper = [
      "store.append('installs.txt', 'i')",
      "counter = { n = 0 }",
      "function counter.bump() counter.n = counter.n + 1 return counter.n end",
    ].join("\n");
    const run = await runPreludeCase({
      body: body(
        "# Fresh",
        lua("counter.bump()"),
        "## First",
        lua("counter.bump()\nvar.first = counter.bump()"),
        "## Second",
        lua("return var.first .. '|' .. counter.bump() .. '|' .. store.read('installs.txt')"),
      ),
      preludes: { helper },
    });
    expect(resultText(run)).toBe("2|1|iii");
  });

  it("sends install-time store calls as the entry's first effects, before its first block", async () => {
    const helper = "store.write('seed.txt', 'seed')\nseed = store.read('seed.txt')";
    const run = await runPreludeCase({
      body: body("# Seeded", "## Only", lua("store.write('out.txt', seed)\nreturn seed")),
      preludes: { helper },
    });
    expect(resultText(run)).toBe("seed");
    expect(run.port.requests.map((r) => [r.effect, r.operation.op])).toEqual([
      ["0.1/1", "write"],
      ["0.1/2", "read"],
      ["0.1/3", "write"],
    ]);
    expect(run.port.types().slice(4, 8)).toEqual([
      "store_op",
      "store_op",
      "chunk_started",
      "store_op",
    ]);
  });

  it("lets a library call prelude helpers from its own top-level code", async () => {
    const run = await runPreludeCase({
      body: body(
        "# Library ask",
        "## Main",
        lua("return require('## lib')"),
        "## lib",
        lua("local first = input.ask()\nreturn 'lib saw ' .. first"),
      ),
      preludes: { "user-input": USER_INPUT_PRELUDE },
      operator: ["hello"],
    });
    expect(resultText(run)).toBe("lib saw hello");
  });

  it("names the prelude as pack:{id} in errors its functions raise later", async () => {
    const run = await runPreludeCase({
      body: body("# Later", "## Only", lua("kit.boom()")),
      preludes: { kit: "kit = {}\nfunction kit.boom()\n  error('bad helper')\nend" },
    });
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Lua");
    // The raise point is the prelude's line, not a block's: the message keeps Lua's own text.
    expect(run.result.error.message).toBe(
      [
        "pack:kit:3: bad helper",
        "stack traceback:",
        "\t[C]: in function 'error'",
        "\tpack:kit:3: in field 'boom'",
        "\tsection `Only` prologue:12: in main chunk",
      ].join("\n"),
    );
  });

  it("reports input.ask's argument error against the block line that called it (level 2)", async () => {
    const run = await runPreludeCase({
      body: body("# Ask", "## Main", lua("local x = 1\ninput.ask('What colour?')")),
      preludes: { "user-input": USER_INPUT_PRELUDE },
      operator: ["never read"],
    });
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Lua");
    // Line 13 of the prompt file is the block's second line; the prelude's own raising line
    // (pack:user-input:5) appears only in the traceback.
    expect(run.result.error.message).toContain(
      "section `Main` prologue:13: input.ask takes no arguments",
    );
    expect(run.result.error.message).not.toContain("pack:user-input:5: input.ask");
    expect(run.port.toolRequests).toEqual([]);
  });

  it("installs the preludes before the one that does not compile, then fails in order", async () => {
    const run = await runPreludeCase({
      body: body("# Broken", "## Only", lua("return 'unreachable'")),
      preludes: { alpha: "store.write('alpha.txt', 'a')", beta: "x = = 1" },
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "Lua",
        message:
          "Pack `beta`: its prelude failed to load: pack:beta:1: unexpected symbol near '='. A prelude only defines functions; it must not call tools while loading.",
      },
    });
    expect(await run.port.files()).toEqual({ "alpha.txt": "a" });
  });

  it("ends the run cancelled when it is cancelled while an install-time store call waits", async () => {
    const controller = new AbortController();
    const run = await runPreludeCase({
      body: body("# Held", "## Only", lua("return 'unreachable'")),
      preludes: { helper: "store.write('a.txt', 'x')" },
      options: { signal: controller.signal },
      beforeStoreOp: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.types().slice(-3)).toEqual([
      "teardown_started",
      "teardown_succeeded",
      "run_finished",
    ]);
  });

  it("installs nothing where no section VM is made (a prompt without blocks)", async () => {
    const run = await runPreludeCase({
      body: body("# Prose only", "## Only", "Just prose."),
      preludes: { helper: "error('never loaded')" },
    });
    expect(run.result.outcome).toBe("succeeded");
  });
});
