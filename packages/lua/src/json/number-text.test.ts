import { describe, expect, it } from "vitest";
import { formatJsonNumber, isInt64, nonFiniteText, numberKeyText } from "./number-text";

describe("formatJsonNumber", () => {
  it("writes integral floats in the 64-bit range as integers (chapter examples)", () => {
    expect(formatJsonNumber(2.0)).toBe("2");
    expect(formatJsonNumber(-0.0)).toBe("0");
    expect(formatJsonNumber(-(2 ** 63))).toBe("-9223372036854775808");
  });

  it("writes integral floats between 2^53 and 2^63 exactly", () => {
    expect(formatJsonNumber(2 ** 60)).toBe("1152921504606846976");
    expect(formatJsonNumber(-(2 ** 62) - 2048)).toBe("-4611686018427389952");
    expect(formatJsonNumber(2 ** 63 - 1024)).toBe("9223372036854774784");
  });

  it("keeps 2^63 and beyond a float, written shortest (never an in-range integer)", () => {
    expect(formatJsonNumber(2 ** 63)).toBe("9223372036854776000");
    expect(formatJsonNumber(1e19)).toBe("10000000000000000000");
    expect(formatJsonNumber(1e21)).toBe("1e+21");
    expect(formatJsonNumber(-1e300)).toBe("-1e+300");
  });

  it("writes other finite floats as the shortest text that reads back exactly", () => {
    expect(formatJsonNumber(1.5)).toBe("1.5");
    expect(formatJsonNumber(1e300)).toBe("1e+300");
    expect(formatJsonNumber(0.1)).toBe("0.1");
    expect(formatJsonNumber(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(formatJsonNumber(1e-7)).toBe("1e-7");
    expect(formatJsonNumber(5e-324)).toBe("5e-324");
    expect(formatJsonNumber(-2.5)).toBe("-2.5");
    expect(formatJsonNumber(Number.MAX_VALUE)).toBe("1.7976931348623157e+308");
  });

  it("round-trips random doubles bit for bit", () => {
    const view = new DataView(new ArrayBuffer(8));
    let seed = 12345;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      view.setUint32(0, seed);
      seed = (seed * 1103515245 + 12345) >>> 0;
      view.setUint32(4, seed);
      const x = view.getFloat64(0);
      const text = formatJsonNumber(x);
      if (!Number.isFinite(x)) {
        expect(text).toBeUndefined();
        continue;
      }
      expect(Number(text), String(x)).toBe(x === 0 ? 0 : x);
    }
  });

  it("writes bigints in decimal and refuses NaN and the infinities", () => {
    expect(formatJsonNumber(9223372036854775807n)).toBe("9223372036854775807");
    expect(formatJsonNumber(-9223372036854775808n)).toBe("-9223372036854775808");
    expect(formatJsonNumber(Number.NaN)).toBeUndefined();
    expect(formatJsonNumber(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(formatJsonNumber(Number.NEGATIVE_INFINITY)).toBeUndefined();
  });
});

describe("debug texts and ranges", () => {
  it("names the non-finite floats as debug mode writes them", () => {
    expect(nonFiniteText(Number.NaN)).toBe("NaN");
    expect(nonFiniteText(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(nonFiniteText(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });

  it("writes number keys as their encoded text (debug-key-text)", () => {
    expect(numberKeyText(2.5)).toBe("2.5");
    expect(numberKeyText(1e300)).toBe("1e+300");
    expect(numberKeyText(2)).toBe("2");
    expect(numberKeyText(3n)).toBe("3");
    expect(numberKeyText(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(numberKeyText(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });

  it("knows the 64-bit integer range", () => {
    expect(isInt64(9223372036854775807n)).toBe(true);
    expect(isInt64(-9223372036854775808n)).toBe(true);
    expect(isInt64(9223372036854775808n)).toBe(false);
    expect(isInt64(-9223372036854775809n)).toBe(false);
  });
});
