import { describe, expect, it } from "vitest";
import { formatSysWhen } from "./sys-when";

const at = (text: string): number => Date.parse(text);

describe("formatSysWhen", () => {
  it.each([
    ["2000-02-29T00:00:00.123Z", "2000-02-29T00:00:00.123Z"],
    ["2024-02-29T12:34:56Z", "2024-02-29T12:34:56Z"],
    ["2000-01-01T00:00:00.005Z", "2000-01-01T00:00:00.005Z"],
    ["2000-01-01T00:00:00.050Z", "2000-01-01T00:00:00.05Z"],
    ["2000-01-01T00:00:00.500Z", "2000-01-01T00:00:00.5Z"],
    ["2000-01-01T00:00:00.120Z", "2000-01-01T00:00:00.12Z"],
    ["1969-07-20T20:17:40Z", "1969-07-20T20:17:40Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
    ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z"],
    ["2100-03-01T23:00:00Z", "2100-03-01T23:00:00Z"],
  ])("writes %s as %s", (input, expected) => {
    expect(formatSysWhen(at(input))).toBe(expected);
  });

  it("counts leap years with the century rules", () => {
    // 1900 and 2100 have no 29 February: the day after 28 February is 1 March.
    const day = 86_400_000;
    expect(formatSysWhen(at("1900-02-28T00:00:00Z") + day)).toBe("1900-03-01T00:00:00Z");
    expect(formatSysWhen(at("2100-02-28T00:00:00Z") + day)).toBe("2100-03-01T00:00:00Z");
    expect(formatSysWhen(at("2000-02-28T00:00:00Z") + day)).toBe("2000-02-29T00:00:00Z");
  });

  it("writes year 0000 with four digits and takes a Date", () => {
    expect(formatSysWhen(-62_167_219_200_000)).toBe("0000-01-01T00:00:00Z");
    expect(formatSysWhen(new Date(Date.UTC(2001, 0, 2, 3, 4, 5, 60)))).toBe(
      "2001-01-02T03:04:05.06Z",
    );
  });

  it("matches Date.prototype.toISOString apart from the fraction", () => {
    for (const ms of [0, 1, 999, 1_000, 951_782_400_123, -1, -86_400_001]) {
      const iso = new Date(ms).toISOString();
      expect(formatSysWhen(ms)).toBe(iso.replace(/\.000Z$/, "Z").replace(/(\.\d*?)0+Z$/, "$1Z"));
    }
  });

  it("refuses instants it cannot write", () => {
    expect(() => formatSysWhen(-62_167_219_200_001)).toThrow(RangeError);
    expect(() => formatSysWhen(253_402_300_800_000)).toThrow(
      "sys.when needs a whole-millisecond instant from year 0000 to 9999, got 253402300800000",
    );
    expect(() => formatSysWhen(1.5)).toThrow(RangeError);
    expect(() => formatSysWhen(Number.NaN)).toThrow(RangeError);
  });
});
