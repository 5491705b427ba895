import { describe, expect, it } from "vitest";
import {
  describeValue,
  hadUnknownKeys,
  readChoice,
  readInteger,
  readJson,
  readMapping,
  readRegex,
  readString,
  readStringList,
  readStringMap,
  requireKeys,
} from "./field-reader";
import { issueCollector } from "./test-support";

describe("describeValue", () => {
  it("names the YAML type, with short scalars shown", () => {
    expect(describeValue("x")).toBe('a string ("x")');
    expect(describeValue("y".repeat(50))).toBe(`a string ("${"y".repeat(37)}...")`);
    expect(describeValue(2)).toBe("a number (2)");
    expect(describeValue(false)).toBe("a boolean (false)");
    expect(describeValue(null)).toBe("nothing (null)");
    expect(describeValue([])).toBe("a list");
    expect(describeValue({})).toBe("a mapping");
    expect(describeValue(new Set())).toBe("a Set");
  });
});

describe("readMapping", () => {
  it("returns the mapping and reports each unknown key with a suggestion", () => {
    const { sink, issues } = issueCollector();
    const fields = readMapping(
      sink,
      { seed: 1, naem: "x", zzz: 2 },
      ["run"],
      ["name", "seed", "start"],
    );
    expect(fields).toEqual({ seed: 1, naem: "x", zzz: 2 });
    expect(fields !== undefined && hadUnknownKeys(fields)).toBe(true);
    expect(issues).toEqual([
      'run.naem: unknown key "naem"; did you mean "name"?',
      'run.zzz: unknown key "zzz"; the keys here are: name, seed, start',
    ]);
  });

  it("marks a mapping without unknown keys as clean", () => {
    const { sink, issues } = issueCollector();
    const fields = readMapping(sink, { seed: 1 }, ["run"], ["seed"]);
    expect(fields !== undefined && hadUnknownKeys(fields)).toBe(false);
    expect(issues).toEqual([]);
  });

  it("refuses a non-mapping", () => {
    const { sink, issues } = issueCollector();
    expect(readMapping(sink, [1], ["run"], ["seed"])).toBeUndefined();
    expect(issues).toEqual(["run: must be a mapping, got a list"]);
  });
});

describe("scalar readers", () => {
  it("readString applies nonEmpty and singleLine", () => {
    const { sink, issues } = issueCollector();
    expect(readString(sink, "a", ["k"], { nonEmpty: true, singleLine: true })).toBe("a");
    expect(readString(sink, "", ["k"])).toBe("");
    expect(readString(sink, "  ", ["k"], { nonEmpty: true })).toBeUndefined();
    expect(readString(sink, "a\r\nb", ["k"], { singleLine: true })).toBeUndefined();
    expect(readString(sink, 1, ["k"])).toBeUndefined();
    expect(issues).toEqual([
      "k: must not be empty",
      "k: must be one line",
      "k: must be a string, got a number (1)",
    ]);
  });

  it("readInteger needs a safe whole number of at least min", () => {
    const { sink, issues } = issueCollector();
    expect(readInteger(sink, 0, ["n"], 0)).toBe(0);
    expect(readInteger(sink, 2 ** 53, ["n"], 0)).toBeUndefined();
    expect(readInteger(sink, 0, ["n"], 1)).toBeUndefined();
    expect(issues).toEqual([
      "n: must be a whole number, got a number (9007199254740992)",
      "n: must be at least 1, got 0",
    ]);
  });

  it("readChoice names the choices", () => {
    const { sink, issues } = issueCollector();
    expect(readChoice(sink, "b", ["k"], ["a", "b"])).toBe("b");
    expect(readChoice(sink, "c", ["k"], ["a", "b"])).toBeUndefined();
    expect(issues).toEqual(['k: must be one of a, b; got a string ("c")']);
  });

  it("requireKeys reports each missing key at the mapping", () => {
    const { sink, issues } = issueCollector();
    expect(requireKeys(sink, { a: null }, ["m"], ["a", "b", "c"])).toBe(false);
    expect(issues).toEqual(['m: missing required key "b"', 'm: missing required key "c"']);
  });
});

describe("collection readers", () => {
  it("readStringList reports each bad item", () => {
    const { sink, issues } = issueCollector();
    expect(readStringList(sink, ["a", "b"], ["l"])).toEqual(["a", "b"]);
    expect(readStringList(sink, ["a", 2, true], ["l"])).toBeUndefined();
    expect(issues).toEqual([
      "l[1]: must be a string, got a number (2)",
      "l[2]: must be a string, got a boolean (true)",
    ]);
  });

  it("readStringMap checks keys and values", () => {
    const { sink, issues } = issueCollector();
    const noDots = (key: string) => (key.includes(".") ? "no dots" : undefined);
    expect(readStringMap(sink, { a: "1" }, ["m"], noDots)).toEqual({ a: "1" });
    expect(readStringMap(sink, { "a.b": "1", c: 2 }, ["m"], noDots)).toBeUndefined();
    expect(issues).toEqual(['m["a.b"]: no dots', "m.c: must be a string, got a number (2)"]);
  });

  it("readStringMap keeps a __proto__ key as data", () => {
    const { sink } = issueCollector();
    const read = readStringMap(sink, JSON.parse('{"__proto__": "x"}'), ["m"]);
    expect(read !== undefined && Object.hasOwn(read, "__proto__")).toBe(true);
  });

  it("readJson accepts JSON data and refuses what JSON cannot hold", () => {
    const { sink, issues } = issueCollector();
    expect(readJson(sink, { a: [1, "x", null, true, { b: 1.5 }] }, ["j"])).toEqual({
      a: [1, "x", null, true, { b: 1.5 }],
    });
    expect(readJson(sink, { a: [Number.NaN] }, ["j"])).toBeUndefined();
    expect(readJson(sink, new Map(), ["j"])).toBeUndefined();
    expect(issues).toEqual([
      "j.a[0]: must be JSON data, and NaN is not a JSON number",
      "j: must be JSON data, got a Map",
    ]);
  });
});

describe("readRegex", () => {
  it("accepts a valid source", () => {
    const { sink, issues } = issueCollector();
    expect(readRegex(sink, "^a[\\s\\S]*b$", ["r"])).toBe("^a[\\s\\S]*b$");
    expect(issues).toEqual([]);
  });

  it("refuses empty, invalid and NONCE sources", () => {
    const { sink, issues } = issueCollector();
    expect(readRegex(sink, "", ["r"])).toBeUndefined();
    expect(readRegex(sink, "a{2,1}", ["r"])).toBeUndefined();
    expect(readRegex(sink, "NONCE", ["r"])).toBeUndefined();
    expect(issues).toEqual([
      "r: must not be empty: an empty regular expression matches any text",
      "r: is not a valid regular expression: Invalid regular expression: /a{2,1}/u: numbers out of order in {} quantifier",
      "r: NONCE is not replaced inside a regular expression; match the nonce with [0-9a-f]{32}",
    ]);
  });
});
