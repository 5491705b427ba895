import { describe, expect, it } from "vitest";
import { READ_TOO_LARGE_MESSAGE } from "../vm/marshal";
import { run, withVm } from "../vm/test-support";
import { LuaOpaque } from "../vm/values";

/**
 * Attack class: exponential marshalling (docs/security.md). A table shared at every level of a
 * deep nest is held once by the Lua heap but would be copied once for every place it appears
 * when read into JavaScript. Every Lua → JS read spends the value and byte budgets json.encode
 * and var spend (memory limit / 8 values, the limit in string bytes) and reads each table once,
 * so the N = 30 bomb is refused after reading 31 tables, not 2^30 values.
 */

const BOMB = "local t = {} for i = 1, 30 do t = { t, t } end";

describe("security: exponential marshalling", () => {
  it("reads a returned bomb as an opaque table (the Engine refuses it like any table)", async () => {
    await withVm(async (vm) => {
      const outcome = await run(vm, `${BOMB} return t, 'after'`);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.values).toHaveLength(2);
      expect(outcome.values[0]).toBeInstanceOf(LuaOpaque);
      expect((outcome.values[0] as LuaOpaque).type).toBe("table");
      // The results share one budget: once it has run out, later values read opaque too.
      expect((outcome.values[1] as LuaOpaque).type).toBe("string");
    });
  });

  it("ends an uncaught error(t) with the text of a table error value", async () => {
    await withVm(async (vm) => {
      const outcome = await run(vm, `${BOMB} error(t)`);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.reason).toBe("error");
      expect(outcome.message).toBe("(error object is a table value)");
      expect(outcome.error).toBeInstanceOf(LuaOpaque);
    });
  });

  it("refuses a host function argument that is too large with a catchable error", async () => {
    await withVm(async (vm) => {
      vm.setGlobal("take", (call) => [String(call.values().length)]);
      const outcome = await run(vm, `${BOMB} local ok, err = pcall(take, t) return tostring(err)`);
      expect(outcome).toMatchObject({ ok: true });
      if (!outcome.ok) return;
      expect(String(outcome.values[0])).toContain(READ_TOO_LARGE_MESSAGE);
    });
  });

  it("refuses a global too large to read", async () => {
    await withVm(async (vm) => {
      await run(vm, `${BOMB} bomb = t`);
      expect(() => vm.getGlobal("bomb")).toThrow(READ_TOO_LARGE_MESSAGE);
    });
  });

  it("still reads a table shared in two places, as two equal values", async () => {
    await withVm(async (vm) => {
      const outcome = await run(vm, "local s = { 1, 'x' } return { a = s, b = { s } }");
      expect(outcome).toEqual({ ok: true, values: [{ a: [1, "x"], b: [[1, "x"]] }] });
    });
  });

  it("counts a shared table at every place: the budget follows the memory limit", async () => {
    // 1 MiB limit: 131,072 values. 2^16 leaves of a 16-level nest fit, 2^17 do not.
    const source = (n: number) => `local t = {} for i = 1, ${n} do t = { t, t } end return t`;
    await withVm(
      async (vm) => {
        const fits = await run(vm, source(15));
        expect(fits.ok && !(fits.values[0] instanceof LuaOpaque)).toBe(true);
        const refused = await run(vm, source(17));
        expect(refused.ok && refused.values[0] instanceof LuaOpaque).toBe(true);
      },
      { luaMemoryBytes: 1_048_576 },
    );
  });

  it("spends string bytes: a string shared in many places counts at each place", async () => {
    await withVm(
      async (vm) => {
        // 64 KiB string × 32 places = 2 MiB > the 1 MiB limit.
        const refused = await run(
          vm,
          "local s = ('x'):rep(65536) local t = {} for i = 1, 32 do t[i] = s end return t",
        );
        expect(refused.ok && refused.values[0] instanceof LuaOpaque).toBe(true);
      },
      { luaMemoryBytes: 1_048_576 },
    );
  });

  it("keeps the depth limit for a table read before at a shallower place", async () => {
    await withVm(async (vm) => {
      const outcome = await run(
        vm,
        "local deep = {} for i = 1, 150 do deep = { deep } end " +
          "local far = deep for i = 1, 100 do far = { far } end return { deep, far }",
      );
      expect(outcome).toMatchObject({
        ok: false,
        message: "cannot read a Lua table nested more than 200 levels deep",
      });
    });
  });
});
