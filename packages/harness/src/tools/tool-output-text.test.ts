import { describe, expect, it } from "vitest";
import { toolOutputText } from "./tool-output-text";

describe("toolOutputText", () => {
  it("passes a string as is", () => {
    expect(toolOutputText("raw <text>")).toEqual({ ok: true, text: "raw <text>" });
    expect(toolOutputText("")).toEqual({ ok: true, text: "" });
  });

  it("writes any other JSON value as its JSON text", () => {
    expect(toolOutputText({ text: "typed", images: [] })).toEqual({
      ok: true,
      text: '{"text":"typed","images":[]}',
    });
    expect(toolOutputText(42)).toEqual({ ok: true, text: "42" });
    expect(toolOutputText(null)).toEqual({ ok: true, text: "null" });
    expect(toolOutputText(false)).toEqual({ ok: true, text: "false" });
  });

  it("refuses what is not JSON data, anywhere inside the value", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [undefined, () => 1, 1n, Number.NaN, { a: undefined }, [Infinity], cycle]) {
      const result = toolOutputText(value);
      expect(result.ok).toBe(false);
    }
    expect(toolOutputText(undefined)).toEqual({
      ok: false,
      problem: "its output is not text or JSON data (undefined is not JSON data)",
    });
    expect(toolOutputText({ n: Number.POSITIVE_INFINITY })).toEqual({
      ok: false,
      problem: "its output is not text or JSON data (Infinity is not a JSON number)",
    });
  });
});
