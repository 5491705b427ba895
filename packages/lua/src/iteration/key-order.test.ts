import { describe, expect, it } from "vitest";
import { TAG_FLOAT, TAG_INT } from "./lua-layout";
import { compareNumberKeys, integerApprox, integerHigh, integerLow } from "./number-order";
import { compareBytesAt, sortByteStrings } from "./sort-bytes";

/** A seeded generator (xorshift32), so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

describe("sortByteStrings", () => {
  it("sorts byte strings as memcmp does, a prefix first, through every path", () => {
    // Up to 16 strings: insertion sort; up to 2048: multikey quicksort; more: radix on chunks.
    for (const [seed, count] of [
      [1, 12],
      [2, 300],
      [3, 2000],
      [4, 6000],
      [5, 20000],
    ] as const) {
      const next = random(seed);
      const heap = new Uint8Array(count * 24);
      const start = new Int32Array(count);
      const length = new Int32Array(count);
      const order = new Int32Array(count);
      let at = 0;
      for (let i = 0; i < count; i++) {
        const size = Math.floor(next() * (next() < 0.2 ? 20 : 7));
        start[i] = at;
        length[i] = size;
        order[i] = i;
        for (let j = 0; j < size; j++) {
          heap[at++] = next() < 0.5 ? Math.floor(next() * 3) : Math.floor(next() * 256);
        }
      }
      sortByteStrings(heap, start, length, order, count);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
      for (let i = 1; i < count; i++) {
        const a = order[i - 1] as number;
        const b = order[i] as number;
        const cmp = compareBytesAt(
          heap,
          start[a] as number,
          length[a] as number,
          start[b] as number,
          length[b] as number,
        );
        expect(cmp, `seed ${seed} at ${i}`).toBeLessThanOrEqual(0);
      }
    }
  });

  it("orders strings that differ only by NUL bytes and length, through every path", () => {
    for (const count of [12, 300, 3000, 9000]) {
      const next = random(count);
      const heap = new Uint8Array(count * 12);
      const start = new Int32Array(count);
      const length = new Int32Array(count);
      const order = Int32Array.from({ length: count }, (_, i) => i);
      for (let i = 0; i < count; i++) {
        start[i] = i * 12;
        length[i] = Math.floor(next() * 10);
        for (let j = 0; j < (length[i] as number); j++) heap[i * 12 + j] = next() < 0.8 ? 0 : 1;
      }
      sortByteStrings(heap, start, length, order, count);
      for (let i = 1; i < count; i++) {
        const a = order[i - 1] as number;
        const b = order[i] as number;
        expect(
          compareBytesAt(
            heap,
            start[a] as number,
            length[a] as number,
            start[b] as number,
            length[b] as number,
          ),
          `${count} at ${i}`,
        ).toBeLessThanOrEqual(0);
      }
    }
  });

  it("orders the chapter's examples: 10 before 9, Z before a, a before ab before b", () => {
    const words = ["b", "ab", "a", "9", "10", "Z", "B", ""];
    const bytes = words.map((w) => new TextEncoder().encode(w));
    const heap = new Uint8Array(64);
    const start = new Int32Array(words.length);
    const length = new Int32Array(words.length);
    let at = 0;
    bytes.forEach((b, i) => {
      heap.set(b, at);
      start[i] = at;
      length[i] = b.length;
      at += b.length;
    });
    const order = Int32Array.from(words.keys());
    sortByteStrings(heap, start, length, order, words.length);
    expect([...order].map((i) => words[i])).toEqual(["", "10", "9", "B", "Z", "a", "ab", "b"]);
  });
});

describe("compareNumberKeys", () => {
  const int = (n: bigint): [number, number, number, number] => {
    const low = Number(BigInt.asIntN(32, n));
    const high = Number(n >> 32n);
    return [TAG_INT, low, high, integerApprox(low, high)];
  };
  const float = (x: number): [number, number, number, number] => [TAG_FLOAT, 0, 0, x];
  const cmp = (a: [number, number, number, number], b: [number, number, number, number]) =>
    Math.sign(compareNumberKeys(...a, ...b));

  it("never rounds an integer: math.maxinteger < 2^63, 2^53 < 2^53 + 1", () => {
    expect(cmp(int(2n ** 63n - 1n), float(2 ** 63))).toBe(-1);
    expect(cmp(float(2 ** 63), int(2n ** 63n - 1n))).toBe(1);
    expect(cmp(int(2n ** 53n), int(2n ** 53n + 1n))).toBe(-1);
    expect(cmp(int(-(2n ** 53n) - 1n), int(-(2n ** 53n)))).toBe(-1);
    expect(cmp(int(-(2n ** 63n)), float(-(2 ** 63) * 2))).toBe(1);
    expect(cmp(int(3n), float(2.5))).toBe(1);
    expect(cmp(int(5n), int(5n))).toBe(0);
  });

  it("splits integers into exact 32-bit halves", () => {
    for (const n of [0, 1, -1, 2 ** 32, -(2 ** 32) - 7, 2 ** 53 - 1, -(2 ** 53) + 1]) {
      const low = integerLow(n);
      const high = integerHigh(n);
      expect((BigInt(high) << 32n) | BigInt(low >>> 0)).toBe(BigInt(n));
      expect(integerApprox(low, high)).toBe(n);
    }
  });
});
