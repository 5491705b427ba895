import { describe, expect, it } from "vitest";
import { ERRORS_PRIVATE_FIELD } from "../vm/error-values";
import type { LuaVm } from "../vm/lua-vm";
import { resultOf, runAt, withErrorsVm } from "./test-support";
import { uncaughtError } from "./uncaught-error";

/** Exposes the private error helpers as the global `E` (tests only: prompt code never sees them). */
function exposeHelpers(vm: LuaVm): void {
  const outcome = vm.runPrivileged({
    source: `local P = ...\nP._G.E = P.${ERRORS_PRIVATE_FIELD}`,
    chunkName: "=expose",
  });
  if (!outcome.ok) throw new Error(outcome.message);
}

describe("the error helpers for Engine Lua (private table field `errors`)", () => {
  it("new builds an error value with fields; the message defaults to the kind", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(
        await resultOf(
          vm,
          `local e = E.new('context_exhausted', 'no room', { reason = 'precheck', kind = 'x' })
local bare = E.new('task_consumed')
local _, from_js = pcall(error, e)
return e.kind .. '|' .. e.reason .. '|' .. tostring(e) .. '|' .. tostring(bare) .. '|' .. tostring(E.is(e)) .. '|' .. tostring(getmetatable(e) == getmetatable(bare))`,
        ),
      ).toBe("context_exhausted|precheck|no room|task_consumed|true|true");
    });
  });

  it("new refuses a kind outside the thirteen and a message that is not a string", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(
        await resultOf(
          vm,
          `local _, a = pcall(function() local e = E.new('Lua', 'x') return e end)
local _, b = pcall(function() local e = E.new('lua', 5) return e end)
return a .. '|' .. b`,
        ),
      ).toBe(
        '[string "line 12"]:1: unknown error kind: Lua|[string "line 12"]:2: an error message must be a string, got number',
      );
    });
  });

  it("raise, runtime and quota raise error values at level 0", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(
        await resultOf(
          vm,
          `local _, a = pcall(E.raise, 'store', 'a.md: not found', { reason = 'not_found', path = 'a.md' })
local _, b = pcall(E.runtime, "sys is read-only; cannot set 'extra'")
local _, c = pcall(E.quota, 'lua log event budget exceeded')
return a.kind .. ':' .. a.path .. ':' .. tostring(a) .. '|' .. b.kind .. ':' .. tostring(b) .. '|' .. c.kind .. ':' .. tostring(c)`,
        ),
      ).toBe(
        "store:a.md:a.md: not found|lua:runtime error: sys is read-only; cannot set 'extra'|lua:lua log event budget exceeded",
      );
      const quota = await runAt(vm, 12, "E.quota('call recursion exceeded cap of 8')");
      expect(quota.ok).toBe(false);
      if (quota.ok) return;
      expect(uncaughtError(quota, () => undefined)).toMatchObject({
        outcome: "failed",
        message: "call recursion exceeded cap of 8",
        error: { kind: "lua", quota: true },
      });
    });
  });

  it("is tells the VM's own error values from look-alikes", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(
        await resultOf(
          vm,
          `local real = E.new('tool', 'x')
local fake = setmetatable({ kind = 'tool', message = 'x' }, { __metatable = getmetatable(real) })
return tostring(E.is(real)) .. tostring(E.is(fake)) .. tostring(E.is(nil)) .. tostring(E.is('x'))`,
        ),
      ).toBe("truefalsefalsefalse");
    });
  });

  it("from turns any raised value into an error value, keeping the VM's own", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(
        await resultOf(
          vm,
          `local own = E.new('tool', 'x')
local parts = {
  tostring(E.from(own) == own),
  E.from('not enough memory').kind .. ':' .. tostring(E.from('not enough memory')),
  tostring(E.from(2.5)),
  tostring(E.from(nil)),
  tostring(E.from({})),
}
return table.concat(parts, '|')`,
        ),
      ).toBe(
        "true|lua:not enough memory|2.5|(error object is a nil value)|(error object is a table value)",
      );
    });
  });

  it("guard makes an Engine Lua function fail only with error values, and lets it suspend", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      vm.setGlobalFunction("later", async (call) => {
        const text = call.text(1) ?? "";
        await Promise.resolve();
        return [`later ${text}`];
      });
      expect(
        await resultOf(
          vm,
          `local f = E.guard(function(x, ...)
  if x == 'index' then local t = nil return t.field end
  if x == 'value' then E.raise('store', 'gone', { reason = 'not_found', path = 'p' }) end
  return later(x), select('#', ...)
end)
local _, a = pcall(f, 'index')
local _, b = pcall(f, 'value')
local ok, c, n = pcall(f, 'ok', nil, nil)
return a.kind .. ':' .. tostring(a) .. '|' .. b.kind .. ':' .. b.reason .. '|' .. tostring(ok) .. ':' .. c .. ':' .. n`,
        ),
      ).toBe(
        "lua:[string \"line 12\"]:2: attempt to index a nil value (local 't')|store:not_found|true:later ok:2",
      );
    });
  });

  it("shares pcall and xpcall with the globals", async () => {
    await withErrorsVm(async (vm) => {
      exposeHelpers(vm);
      expect(await resultOf(vm, "return tostring(E.pcall == pcall and E.xpcall == xpcall)")).toBe(
        "true",
      );
    });
  });
});
