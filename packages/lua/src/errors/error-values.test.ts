import { describe, expect, it } from "vitest";
import { EngineError, quotaError } from "../engine-error";
import { run, withVm } from "../vm/test-support";
import { HostError } from "../vm/values";
import { installErrors } from "./install-errors";
import { installStandIns, resultOf, runAt, withErrorsVm } from "./test-support";

describe("error values (spec: Error values)", () => {
  it("read-error: a caught guard refusal is a table of kind lua whose tostring is its message", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() return sys.nothing end)
return type(err) .. '|' .. err.kind .. '|' .. tostring(err)`,
        ),
      ).toBe("table|lua|runtime error: unknown sys field 'nothing'");
    });
  });

  it("err.message holds the display text", async () => {
    await withErrorsVm(async (vm) => {
      const logged = installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() return sys.nothing end)
if not ok and err.kind == 'lua' then
  log('lookup failed: ' .. err.message)
end
return tostring(err.message == tostring(err))`,
        ),
      ).toBe("true");
      expect(logged).toEqual(["Lua: lookup failed: runtime error: unknown sys field 'nothing'"]);
    });
  });

  it("the .. operator joins an error value's message on either side", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() return sys.nothing end)
local left = 'context: ' .. err
local right = err .. ' suffix'
return left .. '|' .. right`,
        ),
      ).toBe(
        "context: runtime error: unknown sys field 'nothing'|runtime error: unknown sys field 'nothing' suffix",
      );
    });
  });

  it("joins numbers and two error values, and refuses other operands like Lua", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local _, a = pcall(store.read_now, 'a.md')
local _, b = pcall(store.read_now, 'b.md')
return 1 .. a .. 2.5 .. '|' .. a .. b`,
        ),
      ).toBe("1a.md: not found2.5|a.md: not foundb.md: not found");
      expect(
        await resultOf(
          vm,
          `local _, a = pcall(store.read_now, 'a.md')
local ok, err = pcall(function() return a .. {} end)
return err`,
        ),
      ).toBe('[string "line 12"]:2: attempt to concatenate a table value');
    });
  });

  it("an Engine error keeps its kind and fields: store|not_found|missing.txt", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(store.read, 'missing.txt')
return err.kind .. '|' .. err.reason .. '|' .. err.path`,
        ),
      ).toBe("store|not_found|missing.txt");
    });
  });

  it("a context_exhausted failure keeps kind, reason and message", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobal("models", {
        infer: async () => {
          await Promise.resolve();
          throw new EngineError("context_exhausted", "context window exceeded", {
            reason: "provider",
          });
        },
      });
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(models.infer, 'hi')
return tostring(ok) .. '|' .. err.kind .. '|' .. err.reason .. '|' .. tostring(err)`,
        ),
      ).toBe("false|context_exhausted|provider|context window exceeded");
    });
  });

  it("holds only kind, message and the kind's own fields; integer fields stay integers", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobalFunction("anchor", () => {
        throw new EngineError("store", "anchor matched 3 times", {
          reason: "anchor",
          path: "a.md",
          count: 3,
          kind: "forged",
        });
      });
      vm.setGlobalFunction("bare", () => {
        throw new EngineError("tool_loop_exhausted", "");
      });
      expect(
        await resultOf(
          vm,
          `local _, e = pcall(anchor)
local keys = {}
for k in next, e do keys[#keys + 1] = k end
table.sort(keys)
return table.concat(keys, ',') .. '|' .. e.kind .. '|' .. math.type(e.count) .. '|' .. tostring(e.count % 1 == 0)`,
        ),
      ).toBe("count,kind,message,path,reason|store|integer|true");
      expect(
        await resultOf(
          vm,
          `local _, e = pcall(bare)
local n = 0
for _ in next, e do n = n + 1 end
return n .. '|' .. e.message .. '|' .. tostring(e)`,
        ),
      ).toBe("2|tool_loop_exhausted|tool_loop_exhausted");
    });
  });

  it("shares one protected metatable per VM", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok1, e1 = pcall(function() return sys.nothing end)
local ok2, e2 = pcall(store.read, 'missing.txt')
local mt = getmetatable(e1)
local same = tostring(mt == getmetatable(e2)) .. '|' .. type(mt)
local refused = select(2, pcall(setmetatable, e1, nil))
local frozen = select(2, pcall(function() mt.__tostring = function() return 'x' end end))
return same .. '|' .. refused .. '|' .. frozen .. '|' .. tostring(e1)`,
        ),
      ).toBe(
        "true|table|cannot change a protected metatable|[string \"line 12\"]:6: the metatable of error values is read-only|runtime error: unknown sys field 'nothing'",
      );
    });
  });

  it("raises at level 0: no position prefix, from a sync or a suspended host function", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobals({
        now: () => {
          throw new EngineError("internal", "model is down");
        },
        later: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw new EngineError("tool", "tool call failure: web_fetch: missing url argument");
        },
      });
      expect(
        await resultOf(
          vm,
          `local ok1, e1 = pcall(now)
local ok2, e2 = pcall(function() return later() end)
return e1.kind .. '|' .. tostring(e1) .. '|' .. e2.kind .. '|' .. tostring(e2)`,
        ),
      ).toBe("internal|model is down|tool|tool call failure: web_fetch: missing url argument");
    });
  });

  it("turns any other exception of a host function into a lua error value", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobals({
        broken: () => {
          throw new TypeError("cannot read properties of undefined");
        },
        rejects: () => Promise.reject(42),
        exact: () => {
          throw new HostError("raised as is");
        },
        bad: () => 5 as unknown as undefined,
      });
      expect(
        await resultOf(
          vm,
          `local _, a = pcall(broken)
local _, b = pcall(rejects)
local _, c = pcall(exact)
local _, d = pcall(bad)
return a.kind .. ':' .. tostring(a) .. '|' .. b.kind .. ':' .. tostring(b) .. '|' .. type(c) .. ':' .. c .. '|' .. d.kind .. ':' .. tostring(d)`,
        ),
      ).toBe(
        "lua:cannot read properties of undefined|lua:42|string:raised as is|internal:host function 'bad' must return an array of results or nothing",
      );
    });
  });

  it("a suspending call across a C boundary fails with a lua error value", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobalFunction("wait", async () => [1]);
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(table.sort, {2, 1}, function(a, b) wait() return a < b end)
return err.kind .. '|' .. tostring(err)`,
        ),
      ).toBe("lua|attempt to yield across a C-call boundary");
    });
  });

  it("a table you build with a kind field is not an error value", async () => {
    await withErrorsVm(async (vm) => {
      const outcome = await run(vm, "error({ kind = 'tool_loop_exhausted', message = 'x' }, 0)");
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error).toEqual({ kind: "tool_loop_exhausted", message: "x" });
      expect(outcome.errorValue).toBeUndefined();
    });
  });

  it("an uncaught error value reaches the outcome as its Engine error, also re-raised after a suspension", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      vm.setGlobalFunction("spent", () => {
        throw quotaError("lua log event budget exceeded");
      });
      vm.setGlobalFunction("call", async () => ["sibling"]);
      const direct = await runAt(vm, 12, "return store.read('missing.txt')");
      const later = await runAt(
        vm,
        12,
        `local ok, err = pcall(store.read, 'missing.txt')
call('### Sibling', '')
error(err)`,
      );
      const quota = await runAt(vm, 12, "spent()");
      for (const outcome of [direct, later]) {
        expect(outcome.ok).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.errorValue).toBeInstanceOf(EngineError);
        expect(outcome.errorValue?.kind).toBe("store");
        expect(outcome.errorValue?.message).toBe("missing.txt: not found");
        expect(outcome.errorValue?.fields).toEqual({ reason: "not_found", path: "missing.txt" });
        expect(outcome.errorValue?.quota).toBe(false);
      }
      expect(quota.ok).toBe(false);
      if (quota.ok) return;
      expect(quota.errorValue?.quota).toBe(true);
      expect(quota.errorValue?.kind).toBe("lua");
    });
  });

  it("carries an error's run error kind and cause text through catches, re-raises and suspensions", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobalFunction("round", () => {
        throw new EngineError(
          "internal",
          "model is down",
          {},
          {
            runErrorKind: "Completion",
            causeText: "model round 1 of section Main on m (role writer)",
          },
        );
      });
      vm.setGlobalFunction("call", async () => ["sibling"]);
      vm.setGlobalFunction("fault", () => {
        throw new EngineError("internal", "fault");
      });
      const direct = await runAt(vm, 12, "round()");
      const later = await runAt(
        vm,
        12,
        `local ok, err = pcall(round)
call('### Sibling', '')
error(err, 0)`,
      );
      for (const outcome of [direct, later]) {
        expect(outcome.ok).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.errorValue?.kind).toBe("internal");
        expect(outcome.errorValue?.runErrorKind).toBe("Completion");
        expect(outcome.errorValue?.causeText).toBe(
          "model round 1 of section Main on m (role writer)",
        );
      }
      // Neither is a field: the value holds only kind and message, and a value the Engine
      // builds without them has neither.
      expect(
        await resultOf(
          vm,
          "local _, e = pcall(round) local n = 0 for _ in pairs(e) do n = n + 1 end return n",
        ),
      ).toBe(2);
      const plain = await runAt(vm, 12, "local _, e = pcall(fault) error(e, 0)");
      expect(plain.ok).toBe(false);
      if (plain.ok) return;
      expect([plain.errorValue?.runErrorKind, plain.errorValue?.causeText]).toEqual([
        undefined,
        undefined,
      ]);
    });
  });

  it("an EngineError returned among a host function's results is an error value", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      vm.setGlobalFunction("join", () => [
        [{ ok: false, result: new EngineError("lua", '[string "line 30"]:1: beta boom') }],
      ]);
      expect(
        await resultOf(
          vm,
          `local results = join()
local r = results[1].result
local _, caught = pcall(store.read, 'x.md')
return r.kind .. '|' .. tostring(r) .. '|' .. tostring(getmetatable(r) == getmetatable(caught))`,
        ),
      ).toBe('lua|[string "line 30"]:1: beta boom|true');
    });
    await withVm(async (vm) => {
      vm.setGlobalFunction("join", () => [new EngineError("store", "gone", { reason: "x" })]);
      expect(await run(vm, "local e = join() return e.kind, e.message, e.reason")).toEqual({
        ok: true,
        values: ["store", "gone", "x"],
      });
    });
  });

  it("builds the metatable and helpers on first use only", async () => {
    await withErrorsVm(async (vm) => {
      const probe = () =>
        vm.runPrivileged({
          source: "local P = ... return P.rawget(P.errors, 'meta') ~= nil",
          chunkName: "=probe",
        });
      expect(probe()).toEqual({ ok: true, values: [false] });
      vm.setGlobalFunction("fail", () => {
        throw new EngineError("tool", "nope");
      });
      expect(await resultOf(vm, "return select(2, pcall(fail)).kind")).toBe("tool");
      expect(probe()).toEqual({ ok: true, values: [true] });
    });
  });

  it("without installErrors a VM raises an EngineError's message as a string", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("fail", () => {
        throw new EngineError("store", "a.md: not found");
      });
      const outcome = await run(vm, "return select(2, pcall(fail))");
      expect(outcome).toEqual({ ok: true, values: ["a.md: not found"] });
    });
  });

  it("installs once: a second installErrors keeps the VM's values and wrappers", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      const outcome = await runAt(
        vm,
        12,
        "keep_pcall = pcall\n_, kept = pcall(store.read_now, 'a.md')",
      );
      expect(outcome.ok).toBe(true);
      installErrors(vm);
      expect(
        await resultOf(
          vm,
          "local _, again = pcall(error, kept)\nreturn tostring(keep_pcall == pcall)",
        ),
      ).toBe("true");
      const reraised = await runAt(vm, 12, "error(kept)");
      expect(reraised.ok ? undefined : reraised.errorValue?.kind).toBe("store");
    });
  });

  it("installs in any number of VMs, each with its own metatable", async () => {
    await withVm(async (first) => {
      installErrors(first);
      await withErrorsVm(async (second) => {
        for (const vm of [first, second]) {
          vm.setGlobalFunction("fail", () => {
            throw new EngineError("tool", "nope");
          });
        }
        expect(await resultOf(first, "return tostring(select(2, pcall(fail)))")).toBe("nope");
        expect(await resultOf(second, "return select(2, pcall(fail)).kind")).toBe("tool");
      });
    });
  });
});
