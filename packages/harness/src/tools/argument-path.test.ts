import { describe, expect, it } from "vitest";
import { argumentSteps, pointerSteps, renderArgumentPath } from "./argument-path";

describe("argument paths", () => {
  it("splits a JSON Pointer and decodes ~1 and ~0", () => {
    expect(pointerSteps("")).toEqual([]);
    expect(pointerSteps("/a~1b/c~0d/0")).toEqual(["a/b", "c~d", "0"]);
  });

  it("turns steps into array indexes only where the data is an array", () => {
    const data = { items: [{ name: "x" }], map: { "0": 1 } };
    expect(argumentSteps(data, "/items/0/name")).toEqual(["items", 0, "name"]);
    expect(argumentSteps(data, "/map/0")).toEqual(["map", "0"]);
  });

  it("renders plain names with dots, indexes in brackets and other names as JSON strings", () => {
    expect(renderArgumentPath(["url"])).toBe("url");
    expect(renderArgumentPath(["options", "max-items"])).toBe("options.max-items");
    expect(renderArgumentPath(["items", 0, "first name"])).toBe('items[0]["first name"]');
    expect(renderArgumentPath(["0"])).toBe('["0"]');
    expect(renderArgumentPath([])).toBe("");
  });
});
