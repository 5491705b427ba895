/**
 * json.decode then json.encode in a VM must give exactly what the text layer's JS model gives
 * (decodeJsonValue then encodeJsonValue): the same text, or the same refusal message. Run over
 * JSONTestSuite's parsing files (when present) and over generated documents.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonDecodeError } from "../json/decode-error";
import { encodeJsonValue } from "../json/encode-value";
import { JsonEncodeError } from "../json/messages";
import { decodeJsonValue } from "../json/value";
import type { LuaVm } from "../vm/lua-vm";
import { resultOf, withJsonVm } from "./test-support";

const SUITE_DIR = "/work/shared/data/JSONTestSuite/test_parsing";
const present = existsSync(SUITE_DIR);

/** What the JS model makes of `bytes`: the encoded text, or `E:` and the refusal. */
function modelRoundTrip(bytes: Uint8Array): string {
  try {
    return encodeJsonValue(decodeJsonValue(bytes));
  } catch (error) {
    if (error instanceof JsonDecodeError || error instanceof JsonEncodeError) {
      return `E:${error.message}`;
    }
    throw error;
  }
}

/** What json.decode then json.encode make of `bytes` in `vm`. */
async function luaRoundTrip(vm: LuaVm, bytes: Uint8Array): Promise<string> {
  vm.setGlobal("TEXT", bytes);
  return String(
    await resultOf(
      vm,
      `local ok, value = pcall(json.decode, TEXT)
if not ok then return 'E:' .. tostring(value) end
local ok2, text = pcall(json.encode, value)
if not ok2 then return 'E:' .. tostring(text) end
return text`,
    ),
  );
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "B",
  "é",
  "日本",
  "🌊",
  '"',
  "\\",
  "\n",
  "\t",
  "\u0000",
  "\u001f",
  "/",
  " ",
  "z",
];

/** JSON text of a random value: every kind of number, escapes, nesting, duplicate keys. */
function randomJson(next: () => number, depth: number): string {
  const pick = Math.floor(next() * (depth > 4 ? 6 : 8));
  const text = (): string => {
    let s = "";
    const n = Math.floor(next() * 6);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
    return JSON.stringify(s);
  };
  switch (pick) {
    case 0:
      return "null";
    case 1:
      return next() < 0.5 ? "true" : "false";
    case 2: {
      const kinds = [
        () => String(Math.floor((next() - 0.5) * 2000)),
        () => String(BigInt(Math.floor(next() * 2 ** 52)) * 2048n * (next() < 0.5 ? -1n : 1n)),
        () => "9223372036854775807",
        () => "-9223372036854775808",
        () => "9223372036854775808",
        () => "-0",
        () => "1.0",
      ];
      return (kinds[Math.floor(next() * kinds.length)] as () => string)();
    }
    case 3: {
      const kinds = [
        () => String((next() - 0.5) * 10 ** Math.floor(next() * 40 - 20)),
        () => `${Math.floor(next() * 100)}e${Math.floor(next() * 600) - 300}`,
        () => `${(next() * 1000).toFixed(3)}`,
        () => "1E2",
        () => "2.5e-3",
      ];
      return (kinds[Math.floor(next() * kinds.length)] as () => string)();
    }
    case 4:
    case 5:
      return text();
    case 6: {
      const n = Math.floor(next() * 5);
      return `[${Array.from({ length: n }, () => randomJson(next, depth + 1)).join(",")}]`;
    }
    default: {
      const n = Math.floor(next() * 5);
      const members = Array.from({ length: n }, () => `${text()}:${randomJson(next, depth + 1)}`);
      return `{${members.join(", ")}}`;
    }
  }
}

const encoder = new TextEncoder();

describe("json.decode + json.encode against the JS model", () => {
  it("agree on 300 generated documents", async () => {
    await withJsonVm(async (vm) => {
      const next = random(20240601);
      const differences: string[] = [];
      for (let i = 0; i < 300; i++) {
        const bytes = encoder.encode(randomJson(next, 0));
        const lua = await luaRoundTrip(vm, bytes);
        const model = modelRoundTrip(bytes);
        if (lua !== model)
          differences.push(`${new TextDecoder().decode(bytes)}: ${lua} / ${model}`);
      }
      expect(differences).toEqual([]);
    });
  });

  it("agree on a 300 KB document shaped like tool output", async () => {
    await withJsonVm(async (vm) => {
      const records = Array.from({ length: 1500 }, (_, i) => ({
        id: i,
        name: `record ${i} 🌊`,
        score: (i * 7919) / 113,
        ok: i % 3 === 0,
        note: i % 5 === 0 ? null : `line one\nline "two" ${i}`,
        tags: [`t${i % 13}`, "é"],
        nested: { depth: { level: i % 4, empty: [], obj: {} } },
      }));
      const bytes = encoder.encode(JSON.stringify({ records, big: "9223372036854775807" }));
      const lua = await luaRoundTrip(vm, bytes);
      expect(lua.length).toBeGreaterThan(200_000);
      expect(lua).toBe(modelRoundTrip(bytes));
    });
  });

  describe.skipIf(!present)(
    present ? "JSONTestSuite test_parsing" : `JSONTestSuite (skipped: ${SUITE_DIR} is absent)`,
    () => {
      it("agree on every file", { timeout: 60_000 }, async () => {
        const files = readdirSync(SUITE_DIR).filter((f) => f.endsWith(".json"));
        await withJsonVm(async (vm) => {
          const differences: string[] = [];
          for (const file of files) {
            const bytes = new Uint8Array(readFileSync(join(SUITE_DIR, file)));
            const lua = await luaRoundTrip(vm, bytes);
            const model = modelRoundTrip(bytes);
            if (lua !== model) differences.push(`${file}: ${lua} / ${model}`);
          }
          expect(files.length).toBe(318);
          expect(differences).toEqual([]);
        });
      });
    },
  );
});
