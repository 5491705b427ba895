import { describe, expect, it } from "vitest";
import { errorOf, resultOf, withJsonVm } from "./test-support";

describe("json.array", () => {
  it("names the type of any value that is not a table or nil", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.array, true")).toBe(
        "lua|json.array expects a table or no argument, got boolean",
      );
      expect(await errorOf(vm, "json.array, 'x'")).toBe(
        "lua|json.array expects a table or no argument, got string",
      );
      expect(await errorOf(vm, "json.array, 1.5")).toBe(
        "lua|json.array expects a table or no argument, got number",
      );
      expect(await errorOf(vm, "json.array, print or error")).toBe(
        "lua|json.array expects a table or no argument, got function",
      );
    });
  });

  it("refuses any table with a metatable other than the marker", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.array, setmetatable({}, { __metatable = false })")).toBe(
        "lua|json.array: the table already has a metatable",
      );
      expect(await errorOf(vm, "json.array, setmetatable({}, { __index = {} })")).toBe(
        "lua|json.array: the table already has a metatable",
      );
    });
  });

  it("marks in place: the list keeps its items, stays writable and cannot be re-marked", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t = json.array({ 'a' }, 'ignored')
t[#t + 1] = 'b'
table.insert(t, 1, 'z')
local again = json.array(t)
local ok, err = pcall(setmetatable, t, nil)
return json.encode(t) .. ' ' .. tostring(again == t) .. ' ' .. tostring(getmetatable(t)) .. ' ' .. tostring(ok)`,
        ),
      ).toBe('["z","a","b"] true false false');
    });
  });

  it("gives every call a new list", async () => {
    await withJsonVm(async (vm) => {
      expect(await resultOf(vm, "return tostring(json.array() == json.array())")).toBe("false");
    });
  });
});
