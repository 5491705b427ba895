import { describe, expect, it } from "vitest";
import { parseStartInstant } from "./start-instant";

describe("parseStartInstant", () => {
  it("reads the instants of the conformance scenarios", () => {
    expect(parseStartInstant("2000-01-01T00:00:00Z")).toBe(946684800000);
    expect(parseStartInstant("2000-02-29T00:00:00.123Z")).toBe(Date.UTC(2000, 1, 29, 0, 0, 0, 123));
    expect(parseStartInstant("2000-01-01T00:00:00.05Z")).toBe(Date.UTC(2000, 0, 1, 0, 0, 0, 50));
    expect(parseStartInstant("1969-07-20T20:17:40Z")).toBe(-14182940000);
    expect(parseStartInstant("9999-12-31T23:59:59.999Z")).toBe(253402300799999);
  });

  it("reads years below 100 as written", () => {
    expect(parseStartInstant("0001-01-01T00:00:00Z")).toBe(-62135596800000);
  });

  it("refuses days and times that do not exist", () => {
    for (const text of [
      "2001-02-29T00:00:00Z",
      "2000-13-01T00:00:00Z",
      "2000-01-01T24:00:00Z",
      "2000-01-01T23:59:60Z",
    ]) {
      expect(parseStartInstant(text)).toBeUndefined();
    }
  });

  it("refuses other shapes: offsets, no Z, more than milliseconds, dates alone", () => {
    for (const text of [
      "2000-01-01T00:00:00+01:00",
      "2000-01-01T00:00:00",
      "2000-01-01T00:00:00.1234Z",
      "2000-01-01",
      "2000-01-01 00:00:00Z",
      "",
    ]) {
      expect(parseStartInstant(text)).toBeUndefined();
    }
  });
});
