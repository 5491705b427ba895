import { describe, expect, it } from "vitest";
import { type WasmMemory, wasmApi } from "../wasm-api";
import { limitAllocatorWasm } from "./limit-allocator-wasm";

/** A fake libc over a fresh memory: a bump allocator that records what it is asked. */
function instantiate() {
  const api = wasmApi() as unknown as {
    Memory: new (init: { initial: number }) => WasmMemory;
  } & ReturnType<typeof wasmApi>;
  const memory = new api.Memory({ initial: 1 });
  const calls: string[] = [];
  let next = 1024;
  const realloc = (ptr: number, size: number): number => {
    calls.push(`realloc(${ptr},${size})`);
    const block = next;
    next += size;
    return block;
  };
  const free = (ptr: number): void => {
    calls.push(`free(${ptr})`);
  };
  const instance = new api.Instance(new api.Module(limitAllocatorWasm()), {
    env: { memory, realloc, free },
  });
  const alloc = instance.exports.alloc as (ud: number, ptr: number, o: number, n: number) => number;
  const cell = new Uint32Array(memory.buffer, 16, 3); // ud = 16: used, limit, refusals
  return { alloc, calls, cell, ud: 16 };
}

describe("the limit allocator module", () => {
  it("is valid WebAssembly", () => {
    expect(wasmApi().validate(limitAllocatorWasm())).toBe(true);
  });

  it("counts new blocks, ignoring the type tag Lua passes as osize with a NULL ptr", () => {
    const { alloc, calls, cell, ud } = instantiate();
    cell[1] = 1000;
    expect(alloc(ud, 0, 5, 100)).toBe(1024);
    expect(alloc(ud, 0, 4, 200)).toBe(1124);
    expect([cell[0], cell[2]]).toEqual([300, 0]);
    expect(calls).toEqual(["realloc(0,100)", "realloc(0,200)"]);
  });

  it("refuses growth past the limit without calling realloc, and counts the refusal", () => {
    const { alloc, calls, cell, ud } = instantiate();
    cell[1] = 1000;
    alloc(ud, 0, 0, 600);
    expect(alloc(ud, 0, 0, 401)).toBe(0);
    expect(alloc(ud, 1024, 600, 1001)).toBe(0);
    expect([cell[0], cell[2]]).toEqual([600, 2]);
    expect(alloc(ud, 0, 0, 400)).not.toBe(0); // exactly up to the limit is allowed
    expect(cell[0]).toBe(1000);
    expect(calls).toEqual(["realloc(0,600)", "realloc(0,400)"]);
  });

  it("never refuses shrinking, even over the limit, and frees with nsize 0", () => {
    const { alloc, calls, cell, ud } = instantiate();
    cell[1] = 0xffff_ffff;
    alloc(ud, 0, 0, 500);
    cell[1] = 10; // a limit lowered below what is in use
    expect(alloc(ud, 1024, 500, 300)).not.toBe(0);
    expect(cell[0]).toBe(300);
    expect(alloc(ud, 2000, 300, 0)).toBe(0);
    expect(cell[0]).toBe(0);
    expect(calls).toEqual(["realloc(0,500)", "realloc(1024,300)", "free(2000)"]);
  });

  it("compares in 64 bits, so a huge request cannot wrap around the limit", () => {
    const { alloc, cell, ud } = instantiate();
    cell[1] = 0xffff_fff0;
    alloc(ud, 0, 0, 0x10);
    expect(alloc(ud, 0, 0, 0xffff_fff0)).toBe(0);
    expect(cell[2]).toBe(1);
  });
});

describe("the limit allocator module over a shared memory (free gate)", () => {
  function instantiateShared(gate: number) {
    const api = wasmApi() as unknown as {
      Memory: new (init: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
    } & ReturnType<typeof wasmApi>;
    const memory = new api.Memory({ initial: 1, maximum: 4, shared: true });
    const gateView = new Int32Array(memory.buffer, gate, 1);
    const calls: string[] = [];
    const free = (ptr: number): void => {
      calls.push(`free(${ptr}) gate=${Atomics.load(gateView, 0)}`);
    };
    const instance = new api.Instance(new api.Module(limitAllocatorWasm({ gate })), {
      env: { memory, realloc: (_p: number, size: number) => 1024 + size, free },
    });
    const alloc = instance.exports.alloc as (u: number, p: number, o: number, n: number) => number;
    const cell = new Uint32Array(memory.buffer, 16, 3);
    return { alloc, calls, cell, gateView, memory };
  }

  it("is valid WebAssembly that imports a shared memory", () => {
    expect(wasmApi().validate(limitAllocatorWasm({ gate: 64 }))).toBe(true);
    expect(wasmApi().validate(limitAllocatorWasm({ gate: 0x7fff_0000 }))).toBe(true);
  });

  it("frees at once while the gate is clear, and counts as without a gate", () => {
    const { alloc, calls, cell } = instantiateShared(64);
    cell[1] = 1000;
    expect(alloc(16, 0, 5, 100)).toBe(1124);
    expect(alloc(16, 1124, 100, 0)).toBe(0);
    expect(calls).toEqual(["free(1124) gate=0"]);
    expect(cell[0]).toBe(0);
  });

  it("waits to free while another thread holds the gate", async () => {
    const { Worker } = await import("node:worker_threads");
    const { alloc, calls, cell, gateView, memory } = instantiateShared(64);
    cell[1] = 1000;
    alloc(16, 0, 5, 100);
    Atomics.store(gateView, 0, 1);
    const worker = new Worker(
      `const { workerData } = require("node:worker_threads");
       const gate = new Int32Array(workerData.memory.buffer, 64, 1);
       Atomics.wait(gate, 0, 1, 50);
       Atomics.store(gate, 0, 0);`,
      { eval: true, workerData: { memory } },
    );
    try {
      alloc(16, 1124, 100, 0); // spins until the worker clears the gate
      expect(calls).toEqual(["free(1124) gate=0"]);
    } finally {
      await worker.terminate();
    }
  });
});
