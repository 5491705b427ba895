import { describe, expect, it } from "vitest";
import { toLuaJson, toPlainJson } from "./convert";

describe("JSON models", () => {
  it("turns integral numbers into integers and back", () => {
    const lua = toLuaJson({ n: 2, f: 2.5, list: [1, null, "x"], nested: { t: true } });
    expect(lua).toEqual({ n: 2n, f: 2.5, list: [1n, null, "x"], nested: { t: true } });
    expect(toPlainJson(lua)).toEqual({ n: 2, f: 2.5, list: [1, null, "x"], nested: { t: true } });
  });

  it("keeps __proto__ as an own key", () => {
    const value = toLuaJson(JSON.parse('{"__proto__":{"a":1}}'));
    expect(Object.keys(value as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
