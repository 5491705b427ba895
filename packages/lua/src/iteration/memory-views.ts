import type { Heap } from "../vm/heap";

/**
 * Typed views of the wasm linear memory for one read or write pass over a Lua table. Take them
 * after the last call into Lua that may allocate (an allocation can grow the memory, which
 * detaches every view) and do not keep them across the next one.
 */
export interface MemoryViews {
  readonly u8: Uint8Array;
  readonly u32: Uint32Array;
  readonly i32: Int32Array;
  readonly f64: Float64Array;
}

let views: MemoryViews = {
  u8: new Uint8Array(0),
  u32: new Uint32Array(0),
  i32: new Int32Array(0),
  f64: new Float64Array(0),
};

/**
 * The current views of `heap`'s memory: one shared object, made again only when the memory has
 * grown (there is one wasm memory per process).
 */
export function memoryViews(heap: Heap): MemoryViews {
  const u8 = heap.u8();
  if (u8 !== views.u8) {
    views = { u8, u32: heap.u32(), i32: heap.i32(), f64: new Float64Array(u8.buffer) };
  }
  return views;
}

const bitsBuffer = new ArrayBuffer(8);
const bitsFloat = new Float64Array(bitsBuffer);
const bitsInt = new Int32Array(bitsBuffer);

/** The low 32 bits of the IEEE 754 encoding of `value` (little-endian, as wasm stores it). */
export function floatLow(value: number): number {
  bitsFloat[0] = value;
  return bitsInt[0] as number;
}

/** The high 32 bits of the IEEE 754 encoding of `value`. */
export function floatHigh(value: number): number {
  bitsFloat[0] = value;
  return bitsInt[1] as number;
}

/** The float whose encoding has these low and high 32 bits. */
export function floatFromBits(low: number, high: number): number {
  bitsInt[0] = low;
  bitsInt[1] = high;
  return bitsFloat[0] as number;
}
