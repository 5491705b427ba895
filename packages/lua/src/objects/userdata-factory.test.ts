import { describe, expect, it } from "vitest";
import { installErrors } from "../errors/install-errors";
import { runFailure, runValue, withStateVm } from "../state/test-support";
import type { LuaVm } from "../vm/lua-vm";
import { ensureUserdataFactory, NEW_USERDATA_FIELD } from "./userdata-factory";

/** Makes two objects sharing one protected metatable, as globals `a`, `b`, and `a2` (= a). */
function install(vm: LuaVm): void {
  installErrors(vm);
  ensureUserdataFactory(vm);
  ensureUserdataFactory(vm); // idempotent
  const outcome = vm.runPrivileged({
    source: `local P = ...
      local make = P.${NEW_USERDATA_FIELD}
      local meta = {
        __index = function(_, k) return k == 'name' and 'thing' or nil end,
        __newindex = function(_, k) P.error('frozen: ' .. k, 0) end,
        __metatable = 'things are frozen',
      }
      local a, b = make(meta), make(meta)
      P._G.a, P._G.b, P._G.a2 = a, b, a`,
    chunkName: "=objects",
  });
  if (!outcome.ok) throw new Error(outcome.message);
}

describe("ensureUserdataFactory", () => {
  it("makes full userdata whose metatable answers reads", async () => {
    await withStateVm(install, async (vm) => {
      expect(
        await runValue(vm, "return type(a) .. '|' .. a.name .. '|' .. tostring(a.other)"),
      ).toBe("userdata|thing|nil");
    });
  });

  it("gives every object its own identity", async () => {
    await withStateVm(install, async (vm) => {
      expect(
        await runValue(
          vm,
          "local t = { [a] = 1 }; return tostring(a == a2) .. '|' .. tostring(a == b) .. '|' .. tostring(t[a2])",
        ),
      ).toBe("true|false|1");
    });
  });

  it("keeps the metatable out of reach and refuses writes", async () => {
    await withStateVm(install, async (vm) => {
      expect(await runValue(vm, "return getmetatable(a)")).toBe("things are frozen");
      expect(await runFailure(vm, "setmetatable(a, {})")).toContain(
        "bad argument #1 to 'setmetatable'",
      );
      expect(await runValue(vm, "local ok, e = pcall(function() a.name = 1 end); return e")).toBe(
        "frozen: name",
      );
    });
  });

  it("refuses a metatable that is not a table", async () => {
    await withStateVm(
      (vm) => ensureUserdataFactory(vm),
      async (vm) => {
        const outcome = vm.runPrivileged({
          source: `local P = ...; return P.pcall(P.${NEW_USERDATA_FIELD}, 1)`,
          chunkName: "=objects",
        });
        expect(outcome.ok && outcome.values).toEqual([
          false,
          "bad argument #1 to '?' (table expected, got number)",
        ]);
      },
    );
  });
});
