import { describe, expect, it } from "vitest";
import { isValidUtf8 } from "../json/utf8";
import type { HostCall } from "../vm/host-call";
import { run } from "../vm/test-support";
import { withIterationVm } from "./test-support";

/** One key as a walk reported it (through a host function, so strings keep their exact bytes). */
type Seen =
  | { kind: "boolean"; value: boolean }
  | { kind: "integer"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "string"; bytes: Uint8Array }
  | { kind: "other"; type: string };

function record(call: HostCall): Seen {
  switch (call.type(1)) {
    case "boolean":
      return { kind: "boolean", value: call.boolean(1) };
    case "number":
      return call.text(2) === "integer"
        ? { kind: "integer", value: BigInt(call.integer(1) ?? 0) }
        : { kind: "float", value: call.number(1) ?? Number.NaN };
    case "string":
      return { kind: "string", bytes: call.bytes(1) ?? new Uint8Array() };
    default:
      return { kind: "other", type: call.type(1) };
  }
}

/** The reference model's group of a hash-part key (lua-environment.txt, lines 531-771). */
function groupOf(key: Seen): number {
  switch (key.kind) {
    case "boolean":
      return 0;
    case "integer":
      return 1;
    case "float":
      return Number.isFinite(key.value) ? 1 : 4;
    case "string":
      return isValidUtf8(key.bytes) ? 2 : 5;
    default:
      return 3;
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const end = Math.min(a.length, b.length);
  for (let i = 0; i < end; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

/** Exact numeric comparison of two number keys (floats here are never integral in int64 range). */
function compareNumbers(a: Seen, b: Seen): number {
  const exact = (k: Seen): bigint | number =>
    k.kind === "integer"
      ? k.value
      : k.kind === "float" && Number.isInteger(k.value)
        ? BigInt(k.value)
        : (k as { value: number }).value;
  const x = exact(a);
  const y = exact(b);
  if (typeof x === "bigint" && typeof y === "bigint") return x < y ? -1 : x > y ? 1 : 0;
  const xn = Number(x);
  const yn = Number(y);
  return xn < yn ? -1 : xn > yn ? 1 : 0;
}

/** Whether `a` must come before `b` in the hash part (trailing non-scalars: any order). */
function mustPrecede(a: Seen, b: Seen): boolean {
  const ga = groupOf(a);
  const gb = groupOf(b);
  if (ga !== gb) return ga < gb;
  if (a.kind === "boolean" && b.kind === "boolean") return !a.value && b.value;
  if (ga === 1 || ga === 4) return compareNumbers(a, b) < 0;
  if (a.kind === "string" && b.kind === "string") return compareBytes(a.bytes, b.bytes) < 0;
  return false; // tables, functions, userdata, threads: Lua's traversal order
}

/** Lua that fills a table with random keys of every kind (seeded), then walks it. */
const RANDOM_TABLE_LUA = `
local seed, size = ...
math.randomseed(seed)
local R = math.random
local function randomString()
  local n = R(0, 3) == 0 and R(41, 60) or R(0, 6)
  local bytes = {}
  for i = 1, n do
    local pick = R(1, 10)
    if pick <= 6 then bytes[i] = string.char(R(97, 100))
    elseif pick == 7 then bytes[i] = '\\0'
    elseif pick == 8 then bytes[i] = '\\xC3\\xA9'
    elseif pick == 9 then bytes[i] = '\\xF0\\x9F\\x98\\x80'
    else bytes[i] = string.char(R(128, 255)) end
  end
  return table.concat(bytes)
end
local specials = { math.maxinteger, math.mininteger, 2^63, -2^63, 2^53, 2^53 + 1, -(2^53) - 1,
  9007199254740993, -9007199254740993, math.huge, -math.huge, 0.5, -0.5, 1e300, -1e300, 0, -1,
  1e19, 4503599627370497.5 }
local t = {}
for i = 1, R(0, 12) do t[i] = i end
for _ = 1, size do
  local kind = R(1, 9)
  if kind == 1 then t[R(-20, 40)] = 'int'
  elseif kind == 2 then t[R(math.mininteger, math.maxinteger)] = 'bigint'
  elseif kind == 3 then t[R(-1000, 1000) / 8] = 'float'
  elseif kind == 4 then t[specials[R(1, #specials)]] = 'special'
  elseif kind == 5 or kind == 6 then t[randomString()] = 'string'
  elseif kind == 7 then t[R(0, 1) == 0] = 'boolean'
  elseif kind == 8 then t[{}] = 'table'
  else t[function() end] = 'function' end
end
if R(0, 2) == 0 then t[R(1, 12)] = nil end
local border = #t
local pairsKeys, nextKeys = {}, {}
for k in pairs(t) do pairsKeys[#pairsKeys + 1] = k; emit(k, math.type(k)) end
for k in next, t do nextKeys[#nextKeys + 1] = k end
local count = 0
for _ in pairs(t) do count = count + 1 end
local same = #pairsKeys == #nextKeys
for i = 1, #pairsKeys do same = same and pairsKeys[i] == nextKeys[i] end
return border, count, same
`;

describe("the walk order against a reference model", () => {
  it("orders random tables of every key kind as the chapter says, and next walks the same", async () => {
    await withIterationVm(async (vm) => {
      let seen: Seen[] = [];
      vm.setGlobals({
        emit: (call) => {
          seen.push(record(call));
        },
      });
      for (let seed = 1; seed <= 60; seed++) {
        seen = [];
        const outcome = await run(vm, RANDOM_TABLE_LUA, [seed, seed * 3]);
        if (!outcome.ok) throw new Error(outcome.message);
        const [border, count, same] = outcome.values as [number, number, boolean];
        expect(seen.length, `seed ${seed}`).toBe(count);
        expect(same, `seed ${seed}: next walks like pairs`).toBe(true);
        // The array part 1..border comes first, in order (a nil slot in it is skipped).
        let at = 0;
        let expected = 1n;
        while (at < seen.length) {
          const key = seen[at] as Seen;
          if (key.kind !== "integer" || key.value < 1n || key.value > BigInt(border)) break;
          expect(key.value >= expected, `seed ${seed}: array part ascending`).toBe(true);
          expected = key.value + 1n;
          at++;
        }
        const hash = seen.slice(at);
        for (const key of hash) {
          if (key.kind === "integer") {
            const inArray = key.value >= 1n && key.value <= BigInt(border);
            expect(inArray, `seed ${seed}: array key after the array part`).toBe(false);
          }
        }
        for (let i = 1; i < hash.length; i++) {
          const a = hash[i - 1] as Seen;
          const b = hash[i] as Seen;
          expect(mustPrecede(b, a), `seed ${seed}: ${JSON.stringify([a, b], bigintJson)}`).toBe(
            false,
          );
        }
      }
    });
  });
});

function bigintJson(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Uint8Array) return [...value];
  return value;
}
