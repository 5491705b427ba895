import { describe, expect, it } from "vitest";
import { run, values, withVm } from "./test-support";

describe("the string.rep guard", () => {
  it("returns what stock string.rep returns", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          "return string.rep('ab', 3), string.rep('ab', 3, ','), string.rep('x', 0), string.rep('x', -2), string.rep(12, 2), ('é'):rep(2)",
        ),
      ).toEqual(["ababab", "ab,ab,ab", "", "", "1212", "éé"]);
    });
  });

  it("raises stock Lua 5.4.4's argument errors, worded and positioned alike", async () => {
    await withVm(async (vm) => {
      const messages = await values(
        vm,
        `local a = select(2, pcall(string.rep))
         local b = select(2, pcall(function() return string.rep('x') end))
         local c = select(2, pcall(function() return ('x'):rep(1.5) end))
         local d = select(2, pcall(function() return string.rep('x', 2, {}) end))
         return a, b, c, d`,
      );
      expect(messages).toEqual([
        "bad argument #1 to 'string.rep' (string expected, got no value)",
        `[string "line 1"]:2: bad argument #2 to 'rep' (number expected, got no value)`,
        `[string "line 1"]:3: bad argument #1 to 'rep' (number has no integer representation)`,
        `[string "line 1"]:4: bad argument #3 to 'rep' (string expected, got table)`,
      ]);
    });
  });

  it("refuses a result past the memory limit with Lua's memory error, allocating nothing", async () => {
    await withVm(
      async (vm) => {
        const outcome = await run(vm, "return string.rep('x', 2^40)");
        expect(outcome).toMatchObject({
          ok: false,
          reason: "memory",
          error: "not enough memory",
          message: "not enough memory",
        });
        expect(await values(vm, "return pcall(string.rep, 'ab', 600000, ',')")).toEqual([
          false,
          "not enough memory",
        ]);
        // The result is built in a buffer and then copied: it needs twice its size for a moment.
        expect(await values(vm, "return #string.rep('ab', 200000)")).toEqual([400000]);
      },
      { luaMemoryBytes: 1_000_000 },
    );
  });

  it("returns '' at once for an empty string and separator, however large the count", async () => {
    await withVm(async (vm) => {
      expect(
        await values(vm, "return string.rep('', math.maxinteger), string.rep('', 2^53, '')"),
      ).toEqual(["", ""]);
    });
  });
});
