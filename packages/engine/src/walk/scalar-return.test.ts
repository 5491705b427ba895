import { describe, expect, it } from "vitest";
import { LuaOpaque } from "../lua";
import { luaFloatText, luaNumberText } from "./lua-number-text";
import { scalarReturn } from "./scalar-return";

describe("scalarReturn", () => {
  it("counts only the first value", () => {
    expect(scalarReturn(["a", "b"])).toEqual({ kind: "text", text: "a" });
    expect(scalarReturn([null, "b"])).toEqual({ kind: "none" });
    expect(scalarReturn([])).toEqual({ kind: "none" });
  });

  it("turns numbers and booleans into text", () => {
    expect(scalarReturn([2])).toEqual({ kind: "text", text: "2" });
    expect(scalarReturn([2.5])).toEqual({ kind: "text", text: "2.5" });
    expect(scalarReturn([5], true)).toEqual({ kind: "text", text: "5.0" });
    expect(scalarReturn([5], false)).toEqual({ kind: "text", text: "5" });
    expect(scalarReturn([2n ** 62n])).toEqual({ kind: "text", text: "4611686018427387904" });
    expect(scalarReturn([true])).toEqual({ kind: "text", text: "true" });
    expect(scalarReturn([false])).toEqual({ kind: "text", text: "false" });
  });

  it("refuses values with no text form, naming the type", () => {
    expect(scalarReturn([{ a: 1 }])).toEqual({
      kind: "invalid",
      message: "cannot return a table as a result",
    });
    expect(scalarReturn([["x"]])).toEqual({
      kind: "invalid",
      message: "cannot return a table as a result",
    });
    expect(scalarReturn([new LuaOpaque("function")])).toEqual({
      kind: "invalid",
      message: "cannot return a function as a result",
    });
    expect(scalarReturn([new LuaOpaque("userdata")])).toEqual({
      kind: "invalid",
      message: "cannot return a userdata as a result",
    });
  });
});

describe("luaNumberText", () => {
  it("writes floats as Lua's %.14g", () => {
    expect(luaFloatText(0.1)).toBe("0.1");
    expect(luaFloatText(1 / 3)).toBe("0.33333333333333");
    expect(luaFloatText(1e100)).toBe("1e+100");
    expect(luaFloatText(1.5e-7)).toBe("1.5e-07");
    expect(luaFloatText(123456789012345680)).toBe("1.2345678901235e+17");
    expect(luaFloatText(5)).toBe("5.0");
    expect(luaFloatText(-0)).toBe("-0.0");
    expect(luaFloatText(Number.POSITIVE_INFINITY)).toBe("inf");
    expect(luaFloatText(Number.NEGATIVE_INFINITY)).toBe("-inf");
    expect(luaFloatText(Number.NaN)).toBe("nan");
    expect(luaFloatText(100000000000000)).toBe("1e+14");
    expect(luaFloatText(99999999999999)).toBe("99999999999999.0");
    expect(luaFloatText(0.0001)).toBe("0.0001");
    expect(luaFloatText(0.00001)).toBe("1e-05");
  });

  it("writes integers as digits and unsafe integral numbers as floats", () => {
    expect(luaNumberText(-42)).toBe("-42");
    expect(luaNumberText(2 ** 60)).toBe("1.1529215046068e+18");
    expect(luaNumberText(-0)).toBe("-0.0");
  });
});
