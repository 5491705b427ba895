import { describe, expect, it } from "vitest";
import { Usd } from "./usd";

describe("Usd", () => {
  it("reads a number as the decimal it is written as", () => {
    expect(Usd.of(0.3).toString()).toBe("0.3");
    expect(Usd.of(15).toString()).toBe("15");
    expect(Usd.of(1.5e-7).toString()).toBe("0.00000015");
    expect(Usd.of(1e21).toString()).toBe("1000000000000000000000");
    expect(Usd.of(0).toString()).toBe("0");
  });

  it("refuses what is not a finite amount of at least 0", () => {
    expect(() => Usd.of(-1)).toThrow(
      "a dollar amount must be a finite number of at least 0, got -1",
    );
    expect(() => Usd.of(Number.NaN)).toThrow("got NaN");
    expect(() => Usd.of(Number.POSITIVE_INFINITY)).toThrow("got Infinity");
    expect(() => Usd.parse("1,5")).toThrow('not a decimal amount: "1,5"');
  });

  it("adds without rounding where doubles would", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(Usd.of(0.1).plus(Usd.of(0.2)).toString()).toBe("0.3");
    let sum = Usd.ZERO;
    for (let i = 0; i < 1000; i++) sum = sum.plus(Usd.of(0.000001));
    expect(sum.toString()).toBe("0.001");
  });

  it("multiplies by a token count and divides by a million exactly", () => {
    expect(Usd.of(3).times(1234).perMillion().toString()).toBe("0.003702");
    expect(Usd.of(0.075).times(1).perMillion().toString()).toBe("0.000000075");
    expect(() => Usd.of(1).times(1.5)).toThrow(
      "a count must be a whole number of at least 0, got 1.5",
    );
  });

  it("compares and subtracts across scales", () => {
    expect(Usd.parse("0.10").compare(Usd.of(0.1))).toBe(0);
    expect(Usd.of(0.1).compare(Usd.of(0.09999))).toBe(1);
    expect(Usd.of(2).compare(Usd.of(2.0000001))).toBe(-1);
    expect(Usd.of(0.5).minus(Usd.of(0.125)).toString()).toBe("0.375");
    expect(Usd.of(0.1).minus(Usd.of(0.5))).toBe(Usd.ZERO);
  });

  it("prints no trailing zeros, so equal amounts print alike", () => {
    expect(Usd.parse("1.2500").toString()).toBe("1.25");
    expect(Usd.parse("0.000").toString()).toBe("0");
    expect(Usd.of(2.5).times(2).toString()).toBe("5");
  });
});
