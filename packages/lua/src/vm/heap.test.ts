import { describe, expect, it } from "vitest";
import { type WasmMemory, wasmApi } from "../wasm-api";
import { Heap } from "./heap";

describe("Heap", () => {
  it("re-creates its views after the memory grows", () => {
    const api = wasmApi() as unknown as {
      Memory: new (init: { initial: number }) => WasmMemory & { grow(pages: number): number };
    };
    const memory = new api.Memory({ initial: 1 });
    const heap = new Heap(memory);
    heap.u32()[1] = 0xdeadbeef;
    const before = heap.u8();
    expect(heap.byteLength()).toBe(65536);
    memory.grow(1);
    expect(before.length).toBe(0); // the old view is detached
    expect(heap.u8().length).toBe(131072);
    expect(heap.u32()[1]).toBe(0xdeadbeef);
    expect(heap.i32()[1]).toBe(0xdeadbeef | 0);
    expect(heap.byteLength()).toBe(131072);
  });
});
