import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonDecodeError } from "./decode-error";
import { encodeJsonValue } from "./encode-value";
import { decodeJsonValue, type JsonValue } from "./value";

const SUITE_DIR = "/work/shared/data/JSONTestSuite/test_parsing";
const present = existsSync(SUITE_DIR);
const files = present ? readdirSync(SUITE_DIR).filter((f) => f.endsWith(".json")) : [];

/**
 * The i_ ("implementation defined") files json.decode accepts: numbers past the 64-bit range
 * become floats, and decimal underflow becomes 0. Every other i_ file is refused: overflow to
 * infinity, lone surrogates, invalid UTF-8, UTF-16 text, a BOM, 500 levels of nesting.
 */
const ACCEPTED_I_FILES = new Set([
  "i_number_double_huge_neg_exp.json",
  "i_number_real_underflow.json",
  "i_number_too_big_neg_int.json",
  "i_number_too_big_pos_int.json",
  "i_number_very_big_negative_int.json",
]);

/**
 * What a value reads back as after json.encode: a float with no fractional part in the 64-bit
 * range is written as an integer, so it decodes as one.
 */
function afterEncode(value: JsonValue): JsonValue {
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= -(2 ** 63) &&
    value < 2 ** 63
  ) {
    return BigInt(value);
  }
  if (Array.isArray(value)) return value.map(afterEncode);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, afterEncode(v)]));
  }
  return value;
}

type Outcome = { ok: true } | { ok: false; message: string };

function decodeFile(name: string): Outcome {
  const text = new Uint8Array(readFileSync(join(SUITE_DIR, name)));
  try {
    const value = decodeJsonValue(text);
    // Whatever decodes must encode and decode back to the same value.
    expect(decodeJsonValue(encodeJsonValue(value)), name).toEqual(afterEncode(value));
    return { ok: true };
  } catch (error) {
    if (error instanceof JsonDecodeError) return { ok: false, message: error.message };
    throw error;
  }
}

const MESSAGE = /^json\.decode: [^\n]+ at line \d+ column \d+$/;

describe.skipIf(!present)(
  present
    ? `JSONTestSuite test_parsing (${files.length} files)`
    : `JSONTestSuite (skipped: ${SUITE_DIR} is absent)`,
  () => {
    const y = files.filter((f) => f.startsWith("y_"));
    const n = files.filter((f) => f.startsWith("n_"));
    const i = files.filter((f) => f.startsWith("i_"));

    it("has the expected files", () => {
      expect([y.length, n.length, i.length]).toEqual([95, 188, 35]);
    });

    it(`accepts every y_ file (${y.length}) and round-trips it through encode`, () => {
      const refused = y
        .map((f) => [f, decodeFile(f)] as const)
        .filter(([, outcome]) => !outcome.ok);
      expect(refused).toEqual([]);
    });

    it(`refuses every n_ file (${n.length}) with a positioned json.decode message`, () => {
      const wrong = n
        .map((f) => [f, decodeFile(f)] as const)
        .filter(([, outcome]) => outcome.ok || !MESSAGE.test(outcome.message));
      expect(wrong).toEqual([]);
    });

    it(`decides every i_ file (${i.length}) as documented`, () => {
      const decided = i.map((f) => {
        const outcome = decodeFile(f);
        if (!outcome.ok) expect(outcome.message, f).toMatch(MESSAGE);
        return [f, outcome.ok] as const;
      });
      expect(decided).toEqual(i.map((f) => [f, ACCEPTED_I_FILES.has(f)]));
    });

    it("gives the expected reasons for characteristic i_ files", () => {
      const message = (f: string): string => {
        const outcome = decodeFile(f);
        return outcome.ok ? "ok" : outcome.message;
      };
      expect(message("i_number_huge_exp.json")).toMatch(/^json\.decode: number out of range /);
      expect(message("i_string_invalid_utf-8.json")).toMatch(
        /^json\.decode: invalid unicode code point /,
      );
      expect(message("i_string_lone_second_surrogate.json")).toMatch(
        /^json\.decode: lone leading surrogate in hex escape /,
      );
      expect(message("i_structure_500_nested_arrays.json")).toBe(
        "json.decode: recursion limit exceeded at line 1 column 128",
      );
      expect(message("i_structure_UTF-8_BOM_empty_object.json")).toBe(
        "json.decode: expected value at line 1 column 1",
      );
    });
  },
);
