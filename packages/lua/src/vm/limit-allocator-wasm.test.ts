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
