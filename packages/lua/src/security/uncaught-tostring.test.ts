import { describe, expect, it } from "vitest";
import { withErrorsVm } from "../errors/test-support";
import { run, values } from "../vm/test-support";
import { LuaOpaque } from "../vm/values";

/**
 * Attack class: hostile __tostring on an uncaught error object (docs/security.md). An uncaught
 * table with __tostring reads as its text, as in the standalone interpreter, through a bounded
 * call: a __tostring that raises, yields, loops or allocates without end falls back to
 * `(error object is a table value)` and the run goes on to end normally.
 */

const FALLBACK = "(error object is a table value)";

async function uncaughtMessage(source: string, memory?: number): Promise<string> {
  return withErrorsVm(
    async (vm) => {
      const outcome = await run(vm, source);
      if (outcome.ok) throw new Error("the block did not fail");
      expect(outcome.reason).toBe("error");
      // The VM stays usable after the call.
      expect(await values(vm, "return 1 + 1")).toEqual([2]);
      return outcome.message;
    },
    memory === undefined ? undefined : { luaMemoryBytes: memory },
  );
}

describe("security: an uncaught error object's __tostring", () => {
  it("gives a table with __tostring its text", async () => {
    expect(
      await uncaughtMessage(
        "error(setmetatable({ code = 7 }, { __tostring = function(e) return 'code ' .. e.code end }))",
      ),
    ).toBe("code 7");
  });

  it("reads the metatable raw: a protected metatable's __tostring still counts", async () => {
    expect(
      await uncaughtMessage(
        "error(setmetatable({}, { __tostring = function() return 'shown' end, __metatable = false }))",
      ),
    ).toBe("shown");
  });

  it.each([
    ["raises", "function() error('inner') end"],
    ["yields", "function() coroutine.yield() end"],
    ["returns a table", "function() return {} end"],
    ["returns a number", "function() return 42 end"],
    ["loops forever", "function() while true do end end"],
    ["recurses forever", "function(e) return tostring(e) end"],
  ])("falls back when __tostring %s", async (_, fn) => {
    expect(await uncaughtMessage(`error(setmetatable({}, { __tostring = ${fn} }))`)).toBe(FALLBACK);
  });

  it("falls back when __tostring allocates past the memory limit", async () => {
    expect(
      await uncaughtMessage(
        "error(setmetatable({}, { __tostring = function() local t = {} " +
          "for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end end }))",
        4_194_304,
      ),
    ).toBe(FALLBACK);
  });

  it("keeps a table without __tostring as before, and its value readable", async () => {
    await withErrorsVm(async (vm) => {
      const outcome = await run(vm, "error({ code = 7 })");
      expect(outcome).toMatchObject({ ok: false, message: FALLBACK, error: { code: 7 } });
    });
  });

  it("does not call __tostring of a value too large to read any differently", async () => {
    await withErrorsVm(async (vm) => {
      const outcome = await run(
        vm,
        "local t = {} for i = 1, 30 do t = { t, t } end " +
          "error(setmetatable(t, { __tostring = function() return 'bomb' end }))",
      );
      expect(outcome).toMatchObject({ ok: false, message: "bomb" });
      if (!outcome.ok) expect(outcome.error).toBeInstanceOf(LuaOpaque);
    });
  });
});
