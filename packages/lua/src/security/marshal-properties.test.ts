import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resultOf, withJsonVm } from "../json-lua/test-support";
import { run, withVm } from "../vm/test-support";
import { LuaOpaque } from "../vm/values";

/**
 * Property tests (fast-check, pinned exactly) for reading Lua values into JavaScript and for
 * json, under the budgets of docs/design/lua-vm.md "Reading size" (docs/security.md,
 * "Exponential marshalling"). Every property runs with the fixed seed below and the run count
 * written beside it, so CI runs the same cases every time; a failure prints its seed and path.
 */

/** The seed of every property in this file. */
const SEED = 20261202;

/** 1 MiB of Lua memory: the read budget is 1 MiB / 8 = 131,072 values. */
const MEMORY = 1_048_576;
const BUDGET = MEMORY / 8;

/** One step that builds the next table from the current one `t` (shared, never copied). */
type Step = "pair" | "wrap" | "keyed" | "leaves";

const LUA_STEP: Record<Step, string> = {
  pair: "t = { t, t }",
  wrap: "t = { t }",
  keyed: "t = { a = t, b = t, n = i }",
  leaves: "t = { t, 'x', i, true }",
};

/** How many values reading the result expands to (keys of keyed tables counted too). */
function expandedCount(steps: readonly Step[]): number {
  let count = 1; // the empty table
  for (const step of steps) {
    if (step === "pair") count = 1 + 2 * count;
    else if (step === "wrap") count = 1 + count;
    else if (step === "keyed") count = 1 + 3 + 2 * count + 1;
    else count = 1 + count + 3;
  }
  return count;
}

/** The JavaScript value the steps' table reads as (only built when small). */
function expandedValue(steps: readonly Step[]): unknown {
  let value: unknown = {};
  steps.forEach((step, index) => {
    const i = index + 1;
    if (step === "pair") value = [value, value];
    else if (step === "wrap") value = [value];
    else if (step === "keyed") value = { a: value, b: value, n: i };
    else value = [value, "x", i, true];
  });
  return value;
}

describe("properties: reading shared Lua tables stays within the budget", () => {
  // 200 runs: sequences of up to 36 steps (lengths spread evenly), so expansions range from 1 value
  // to about 2^37.
  it("reads a table that fits exactly, and refuses one far past the budget as opaque", async () => {
    const seen = { read: 0, refused: 0 };
    await withVm(
      async (vm) => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.constantFrom<Step>("pair", "wrap", "keyed", "leaves"), {
              maxLength: 36,
              size: "max",
            }),
            async (steps) => {
              const body = steps.map((step, i) => `i = ${i + 1} ${LUA_STEP[step]}`).join("\n");
              const outcome = await run(vm, `local t = {} local i = 0\n${body}\nreturn t`);
              expect(outcome.ok).toBe(true);
              if (!outcome.ok) return;
              const read = outcome.values[0];
              const count = expandedCount(steps);
              // Counting details (keys, the result itself) stay within a factor of 4.
              if (count <= BUDGET / 4) {
                expect(read).toEqual(expandedValue(steps));
                seen.read++;
              }
              if (count >= BUDGET * 4) {
                expect(read).toBeInstanceOf(LuaOpaque);
                seen.refused++;
              }
            },
          ),
          { seed: SEED, numRuns: 200 },
        );
      },
      { luaMemoryBytes: MEMORY },
    );
    // Both sides of the budget were tried.
    expect(seen.read).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(5);
  });
});

/** A JSON value as JSON.parse gives it. */
const jsonValue = fc.jsonValue({ maxDepth: 6 });

describe("properties: json", () => {
  // 300 runs of fast-check's JSON texts (nesting up to 6; its default strings and numbers).
  it("json.decode agrees with JSON.parse on every valid text", async () => {
    await withJsonVm(async (vm) => {
      await fc.assert(
        fc.asyncProperty(fc.json({ maxDepth: 6 }), async (text) => {
          vm.setGlobal("TEXT", text);
          // Read back through json.encode, which keeps arrays and objects apart.
          const encoded = await resultOf(vm, "return json.encode(json.decode(TEXT))");
          expect(JSON.parse(String(encoded))).toEqual(JSON.parse(text));
        }),
        { seed: SEED, numRuns: 300 },
      );
    });
  });

  // 200 runs: random JSON values (depth up to 6) written as Lua constructors.
  it("a Lua table built from a JSON value encodes as that value, or fails with a budget error", async () => {
    await withJsonVm(
      async (vm) => {
        await fc.assert(
          fc.asyncProperty(jsonValue, async (value) => {
            const outcome = await run(
              vm,
              `local ok, text = pcall(json.encode, ${luaLiteral(value)}) return ok, text`,
            );
            expect(outcome.ok).toBe(true);
            if (!outcome.ok) return;
            const [ok, text] = outcome.values;
            // json.encode writes -0 as 0, as JSON.stringify does.
            const expected: unknown = JSON.parse(JSON.stringify(value));
            if (ok === true) expect(JSON.parse(String(text))).toEqual(expected);
            else expect(String(text)).toMatch(/too large|budget|limit/);
          }),
          { seed: SEED, numRuns: 200 },
        );
      },
      { luaMemoryBytes: MEMORY },
    );
  });
});

/** A Lua string literal for `text`: every UTF-8 byte as a decimal escape. */
function luaString(text: string): string {
  return `"${[...new TextEncoder().encode(text)].map((byte) => `\\${byte}`).join("")}"`;
}

/** A Lua expression that builds `value` (json.null for null, json.array for arrays). */
function luaLiteral(value: unknown): string {
  if (value === null) return "json.null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (Object.is(value, -0)) return "-0.0";
    return Number.isInteger(value) && Number.isSafeInteger(value) ? String(value) : `(${value})`;
  }
  if (typeof value === "string") return luaString(value);
  if (Array.isArray(value)) {
    return value.length === 0
      ? "json.array()"
      : `json.array({ ${value.map(luaLiteral).join(", ")} })`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return `{ ${entries.map(([key, v]) => `[${luaString(key)}] = ${luaLiteral(v)}`).join(", ")} }`;
}
