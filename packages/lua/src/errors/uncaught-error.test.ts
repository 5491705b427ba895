import { describe, expect, it } from "vitest";
import { EngineError, quotaError } from "../engine-error";
import type { LuaVm } from "../vm/lua-vm";
import type { BlockFailure } from "../vm/outcome";
import ERROR_VALUES_LUA from "./error-values.lua";
import { installStandIns, runAt, withErrorsVm } from "./test-support";
import { type UncaughtError, uncaughtError } from "./uncaught-error";

/** Runs the blocks in order in one VM (libraries first) and describes how the last one fails. */
async function failLast(
  vm: LuaVm,
  blocks: readonly (readonly [line: number, label: string, source: string])[],
): Promise<UncaughtError> {
  const labels = new Map(blocks.map(([line, label]) => [line, label]));
  let last: BlockFailure | undefined;
  for (const [line, , source] of blocks) {
    const outcome = await runAt(vm, line, source);
    last = outcome.ok ? undefined : outcome;
  }
  if (last === undefined) throw new Error("the last block did not fail");
  return uncaughtError(last, (line) => labels.get(line));
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

describe("uncaught Lua runtime errors (spec: Error line numbers and locations)", () => {
  it("verify-answer points at the absolute line, twice, with a mapped traceback", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [
          12,
          "section `Check` prologue",
          "local answer = 'no'\nif answer ~= 'yes' then\n  error('the answer must be yes')\nend",
        ],
      ]);
      expect(failure.outcome).toBe("failed");
      expect(failure.error.kind).toBe("lua");
      expect(failure.message).toBe(
        [
          "section `Check` prologue:14: runtime error: section `Check` prologue:14: the answer must be yes",
          "stack traceback:",
          "\t[C]: in function 'error'",
          "\tsection `Check` prologue:14: in main chunk",
        ].join("\n"),
      );
      expect(failure.message).toMatch(
        /^(?![\s\S]*\[string ")[\s\S]*stack traceback:[\s\S]*section `Check` prologue:14: in/,
      );
      expect(failure.error.kind).toBe("lua");
      expect(failure.error.message).toBe("section `Check` prologue:14: the answer must be yes");
    });
  });

  it.each([
    [11, "section `Work` prologue", "assert(false)", "section `Work` prologue:11"],
    [14, "section `Check` epilog", "assert(false)", "section `Check` epilog:14"],
    [23, "section `S` lua 3", "var_step = 3\nassert(false)", "section `S` lua 3:24"],
    [
      112,
      "section `Deep` epilog",
      "local depth = 'deep'\nassert(false)",
      "section `Deep` epilog:113",
    ],
    [
      12,
      "section `Verify` prologue",
      "local answer = 'no'\nassert(answer == 'yes')\nreturn 'checked'",
      "section `Verify` prologue:13",
    ],
  ])(
    "assert(false) in the block at line %i reports its own line",
    async (line, label, source, at) => {
      await withErrorsVm(async (vm) => {
        const failure = await failLast(vm, [[line, label, source]]);
        expect(failure.error.kind).toBe("lua");
        expect(firstLine(failure.message)).toBe(`${at}: runtime error: ${at}: assertion failed!`);
      });
    },
  );

  it.each([
    [12, "section `Gather Background Research Notes` prologue", "notes missing"],
    [24, "section `Helpers` (line 21) prologue", "second helpers failed"],
    [36, "section `C` prologue", "c failed"],
  ])("a label of any form heads the message (block at line %i)", async (line, label, text) => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [[line, label, `error('${text}')`]]);
      expect(firstLine(failure.message)).toBe(
        `${label}:${line}: runtime error: ${label}:${line}: ${text}`,
      );
    });
  });

  it("checked: an assert message ends the run as Lua and carries the message", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [
          12,
          "section `Verify` prologue",
          "local answer = 'no'\nassert(answer == 'yes', 'the answer must be yes')\nreturn 'checked'",
        ],
      ]);
      expect(failure.error.kind).toBe("lua");
      expect(firstLine(failure.message)).toBe(
        "section `Verify` prologue:13: runtime error: section `Verify` prologue:13: the answer must be yes",
      );
    });
  });

  it("lib-fault points at the raise inside the library and maps every frame once", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [19, "section `lib` prologue", "function boom()\n  error('deep fault')\nend"],
        [12, "section `Main` prologue", "local lib = 'required'\nboom()"],
      ]);
      expect(failure.error.kind).toBe("lua");
      expect(failure.message).toBe(
        [
          "section `lib` prologue:20: runtime error: section `lib` prologue:20: deep fault",
          "stack traceback:",
          "\t[C]: in function 'error'",
          "\tsection `lib` prologue:20: in function 'boom'",
          "\tsection `Main` prologue:13: in main chunk",
        ].join("\n"),
      );
      expect(failure.message).not.toContain("?:");
      expect(failure.error.message).toBe("section `lib` prologue:20: deep fault");
    });
  });

  it("library raises: during the load, later from a function, and in a later block", async () => {
    await withErrorsVm(async (vm) => {
      const load = await failLast(vm, [
        [
          40,
          "section `lib` prologue",
          "local a = 1\nlocal b = 2\nlocal c = 3\nerror('load fault')",
        ],
      ]);
      expect(load.message).toContain("section `lib` prologue:43: load fault");
      const later = await failLast(vm, [
        [40, "section `lib` prologue", "function later()\n  error('later fault')\nend"],
        [12, "section `Main` prologue", "local lib = 'required'\nlater()"],
      ]);
      expect(firstLine(later.message)).toBe(
        "section `lib` prologue:41: runtime error: section `lib` prologue:41: later fault",
      );
      const third = await failLast(vm, [[27, "section `lib` lua 3", "error('second fault')"]]);
      expect(third.message).toContain("section `lib` lua 3:27: second fault");
    });
  });

  it("a mapped line raised again with error(msg, 0) is not shifted a second time", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [50, "section `lib` prologue", "function fault()\n  error('later fault')\nend"],
        [
          12,
          "section `Main` prologue",
          "local ok, err = pcall(fault)\nerror('section `lib` prologue:51: later fault', 0)",
        ],
      ]);
      expect(firstLine(failure.message)).toBe("section `lib` prologue:51: later fault");
    });
  });

  it("text that names no block passes unchanged", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [12, "section `Main` prologue", "error('compacted', 0)"],
      ]);
      expect(firstLine(failure.message)).toBe("compacted");
      expect(failure.message).toContain("section `Main` prologue:12: in main chunk");
    });
  });

  it("a lua error value leaving a block names the block and the line of the raise", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      const failure = await failLast(vm, [
        [
          12,
          "section `Test` prologue",
          "local ok, err = pcall(function() return sys.nothing end)\nerror(err)",
        ],
      ]);
      expect(failure.error.kind).toBe("lua");
      expect(firstLine(failure.message)).toBe(
        "section `Test` prologue:13: runtime error: section `Test` prologue:13: runtime error: unknown sys field 'nothing'",
      );
      expect(failure.message).toMatch(
        /section `Test` prologue:1[23]: [\s\S]*unknown sys field 'nothing'/,
      );
      expect(failure.error.kind).toBe("lua");
      expect(failure.error.message).toBe("runtime error: unknown sys field 'nothing'");
    });
  });

  it("frames of the Engine's own Lua read as bare references to the .lua file's own lines", async () => {
    await withErrorsVm(async (vm) => {
      const exposed = vm.runPrivileged({
        source: "local P = ...\nP._G.guard = P.errors.guard",
        chunkName: "=expose",
      });
      expect(exposed.ok).toBe(true);
      const failure = await failLast(vm, [
        [
          20,
          "section `Main` prologue",
          "local f = guard(function() local t = nil return t.x end)\nf()",
        ],
      ]);
      expect(firstLine(failure.message)).toBe(
        "section `Main` prologue:21: runtime error: section `Main` prologue:21: section `Main` prologue:20: attempt to index a nil value (local 't')",
      );
      const lines = ERROR_VALUES_LUA.split("\n");
      const defined = lines.indexOf("local function settle_guarded(ok, ...)") + 1;
      const raised = lines.indexOf("  error(from(e), 0)", defined) + 1;
      expect(defined).toBeGreaterThan(0);
      expect(failure.message).toContain(
        `\n\trunvil/error-values.lua:${raised}: in function <runvil/error-values.lua:${defined}>\n`,
      );
      expect(failure.message).toContain("section `Main` prologue:21: in main chunk");
      expect(failure.message).not.toContain("?:");
    });
  });

  it("an uncaught lua error value from an Engine call names the calling line", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobalFunction("offer", () => {
        throw new EngineError("lua", "tools.offer: expected a list of tool names");
      });
      const failure = await failLast(vm, [
        [30, "section `Main` prologue", "local x = 1\noffer(5)"],
      ]);
      expect(firstLine(failure.message)).toBe(
        "section `Main` prologue:31: runtime error: section `Main` prologue:31: tools.offer: expected a list of tool names",
      );
    });
  });
});

describe("uncaught failures and run error kinds (spec: What an uncaught error ends)", () => {
  const MAIN = "section `Main` prologue";

  it("an uncaught store failure ends the run as Vfs with its own message and fields", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      for (const source of [
        "return store.read('missing.txt')",
        "local ok, err = pcall(store.read, 'missing.txt')\nif not ok then\n  error(err, 0)\nend\nreturn err",
        "local ok, err = pcall(store.read, 'missing.txt')\nerror(err)",
      ]) {
        const failure = await failLast(vm, [[12, MAIN, source]]);
        expect(failure.outcome).toBe("failed");
        expect(failure.error.kind).toBe("store");
        expect(failure.message).toBe("missing.txt: not found");
        expect(failure.error.kind).toBe("store");
        expect(failure.error.fields).toEqual({ reason: "not_found", path: "missing.txt" });
      }
    });
  });

  it("an error value raised after another suspending call keeps its kind", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      vm.setGlobalFunction("call", async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return ["sibling"];
      });
      const failure = await failLast(vm, [
        [
          12,
          MAIN,
          "local ok, err = pcall(store.read, 'missing.txt')\ncall('### Sibling', '')\nerror(err)",
        ],
      ]);
      expect(failure.error.kind).toBe("store");
    });
  });

  it("raising a caught error's text or message instead of the value fails as Lua", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      const text = await failLast(vm, [
        [12, MAIN, "local ok, err = pcall(store.read, 'missing.txt')\nerror(tostring(err), 0)"],
      ]);
      expect([text.error.kind, firstLine(text.message)]).toEqual(["lua", "missing.txt: not found"]);
      const message = await failLast(vm, [
        [12, MAIN, "local ok, err = pcall(store.read, 'missing.txt')\nerror(err.message)"],
      ]);
      expect([message.error.kind, firstLine(message.message)]).toEqual([
        "lua",
        `${MAIN}:13: runtime error: ${MAIN}:13: missing.txt: not found`,
      ]);
    });
  });

  it("a table you build, even with an Engine kind, ends the run as Lua", async () => {
    await withErrorsVm(async (vm) => {
      for (const source of [
        "error({ kind = 'tool_loop_exhausted', message = 'x' }, 0)",
        "error({ kind = 'custom', message = 'handler exploded' })",
      ]) {
        const failure = await failLast(vm, [[12, MAIN, source]]);
        expect(failure.error.kind).toBe("lua");
        expect(firstLine(failure.message)).toBe("(error object is a table value)");
        expect(failure.error.kind).toBe("lua");
      }
    });
  });

  it("passes each Engine error value through, message, fields and quota mark unchanged", async () => {
    const cases: readonly (readonly [EngineError, UncaughtError["outcome"]])[] = [
      [
        new EngineError("context_exhausted", "context window exceeded", { reason: "provider" }),
        "failed",
      ],
      [
        new EngineError("empty_model_reply", "empty model reply", { finish_reason: "length" }),
        "failed",
      ],
      [new EngineError("tool_loop_exhausted", "tool-call loop did not converge"), "failed"],
      [new EngineError("tool", "tool call failure: web_fetch: no page"), "failed"],
      [
        new EngineError("out_of_scope_tool", 'tool "rogue" is not in this section\'s scope', {
          name: "rogue",
        }),
        "failed",
      ],
      [
        new EngineError("unbound_tool", 'tool "missing" is not a tool in this run', {
          name: "missing",
        }),
        "failed",
      ],
      [new EngineError("tasks_live", "tasks still live", { tasks: "1.2" }), "failed"],
      [new EngineError("internal", "model is down"), "failed"],
      [quotaError("call recursion exceeded cap of 8"), "failed"],
      [new EngineError("cancelled", "cancelled", { task: "1.1" }), "cancelled"],
    ];
    await withErrorsVm(async (vm) => {
      for (const [error, outcome] of cases) {
        vm.setGlobalFunction("fail", () => {
          throw error;
        });
        const failure = await failLast(vm, [
          [12, MAIN, "local ok, err = pcall(fail)\nlocal x = 1\nerror(err, 0)"],
        ]);
        expect([failure.outcome, failure.message]).toEqual([outcome, error.message]);
        expect(failure.error.kind).toBe(error.kind);
        expect(failure.error.fields).toEqual(error.fields);
        expect(failure.error.quota).toBe(error.quota);
      }
    });
  });

  it("a cancelled block ends with the cancelled outcome", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobalFunction("wait", () => new Promise(() => undefined));
      setTimeout(() => vm.cancel(), 5);
      const failure = await failLast(vm, [[12, MAIN, "wait()"]]);
      expect([failure.outcome, failure.message, failure.error.kind]).toEqual([
        "cancelled",
        "cancelled",
        "cancelled",
      ]);
    });
  });

  it("running out of Lua memory ends the run as Lua with Lua's own text", async () => {
    await withErrorsVm(
      async (vm) => {
        const failure = await failLast(vm, [
          [12, MAIN, "local t = {}\nfor i = 1, 1e9 do t[i] = i end"],
        ]);
        expect([failure.error.kind, firstLine(failure.message)]).toEqual([
          "lua",
          "not enough memory",
        ]);
        expect(failure.error.message).toBe("not enough memory");
      },
      { luaMemoryBytes: 1_000_000 },
    );
  });

  it("a block that does not compile during the run reads as a compile error", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await failLast(vm, [
        [14, "section `Check` epilog", "local secret =\nreturn secret"],
      ]);
      expect(failure.error.kind).toBe("lua");
      expect(failure.message).toMatch(
        /^lua compilation error at section `Check` epilog \(line 14\): \[string "line 14"\]:2: /,
      );
    });
  });
});
