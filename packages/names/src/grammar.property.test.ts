import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAlias } from "./alias";
import { checkModelId } from "./model-id";
import { checkPackId } from "./pack-id";
import {
  REASON_ALIAS,
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_MODEL_ID,
  REASON_PACK_ID_SEGMENTS,
  REASON_TOOL_ID_SEGMENTS,
} from "./reasons";
import { parseName } from "./segments";
import { parseToolId } from "./tool-id";
import { isOfferableWireName, toWireName } from "./wire-name";

/**
 * Property tests (fast-check, pinned exactly) for the name grammar of the tools chapter, "Name
 * errors and their reasons": each checker is compared with the grammar written as a regular
 * expression, over random text that mixes valid characters, separators, control characters
 * and anything else. Every property runs with the fixed seed below and the run count beside
 * it, so CI runs the same cases every time; a failure prints its seed and path.
 */

/** The seed of every property in this file. */
const SEED = 20261202;

/** Text near the grammar: mostly segment characters and `/`, sometimes anything at all. */
const nameLike = fc.oneof(
  fc.string({
    unit: fc.constantFrom(..."abcz09-_./".split(""), "A", " ", "\t", "\u007f", "\u0000", "é"),
    maxLength: 24,
  }),
  fc.string({ unit: "binary", maxLength: 24 }),
);

const SEGMENT = /^[a-z0-9._-]+$/;

/** The reason the chapter gives for `text` as a name, by its rules in order; undefined: valid. */
function expectedReason(text: string): string | undefined {
  for (const segment of text.split("/")) {
    if (segment === "") return REASON_EMPTY_SEGMENT;
    for (const char of segment) {
      if (SEGMENT.test(char)) continue;
      const code = char.charCodeAt(0);
      return code < 0x20 || code === 0x7f ? REASON_CONTROL_CHARACTER : REASON_BAD_CHARACTER;
    }
  }
  return undefined;
}

describe("properties: the name grammar", () => {
  // 1,000 runs.
  it("parseName accepts exactly the grammar, gives the first rule's reason, and round-trips", () => {
    fc.assert(
      fc.property(nameLike, (text) => {
        const parsed = parseName(text);
        const reason = expectedReason(text);
        if (reason === undefined) {
          expect(parsed.ok).toBe(true);
          if (parsed.ok) expect(parsed.value.join("/")).toBe(text);
        } else {
          expect(parsed).toEqual({ ok: false, reason });
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  // 1,000 runs.
  it("parseToolId is a valid name of two or more segments, Pack id first, name last", () => {
    fc.assert(
      fc.property(nameLike, (text) => {
        const tool = parseToolId(text);
        const name = parseName(text);
        if (!name.ok) {
          expect(tool).toEqual(name);
          return;
        }
        if (name.value.length < 2) {
          expect(tool).toEqual({ ok: false, reason: REASON_TOOL_ID_SEGMENTS });
          return;
        }
        expect(tool).toEqual({
          ok: true,
          value: {
            id: text,
            packId: name.value[0],
            segments: name.value,
            toolName: name.value.at(-1),
          },
        });
        // Every valid tool id has a wire name a model may be offered.
        expect(isOfferableWireName(toWireName(text))).toBe(true);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  // 1,000 runs.
  it("checkPackId is a valid name of exactly one segment", () => {
    fc.assert(
      fc.property(nameLike, (text) => {
        const name = parseName(text);
        const pack = checkPackId(text);
        if (!name.ok) expect(pack).toEqual(name);
        else if (name.value.length !== 1) {
          expect(pack).toEqual({ ok: false, reason: REASON_PACK_ID_SEGMENTS });
        } else expect(pack).toEqual({ ok: true, value: text });
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  // 1,000 runs over letters, digits, `_`, `-` and others, up to 70 characters.
  it("checkAlias accepts exactly [A-Za-z][A-Za-z0-9_-]{0,63}", () => {
    const aliasLike = fc.string({
      unit: fc.constantFrom(..."aZ09_-./ é".split("")),
      maxLength: 70,
    });
    fc.assert(
      fc.property(aliasLike, (text) => {
        const valid = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(text);
        expect(checkAlias(text)).toEqual(
          valid ? { ok: true, value: text } : { ok: false, reason: REASON_ALIAS },
        );
        if (valid) expect(isOfferableWireName(text)).toBe(true);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  // 1,000 runs.
  it("checkModelId accepts exactly [A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}", () => {
    const modelLike = fc.string({
      unit: fc.constantFrom(..."aZ09._:/@+- é\u0000".split("")),
      maxLength: 140,
    });
    fc.assert(
      fc.property(modelLike, (text) => {
        const valid = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/.test(text);
        const checked = checkModelId(text);
        expect(checked.ok).toBe(valid);
        if (!checked.ok) expect(checked.reason).toBe(REASON_MODEL_ID);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});
