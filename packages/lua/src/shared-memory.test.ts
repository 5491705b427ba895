import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createSharedMemory, importSharedMemory } from "./shared-memory";
import { wasmApi } from "./wasm-api";

/** wasmoon's own module, the one the runtime rewrites. */
function glueWasm(): Uint8Array {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("wasmoon");
  return new Uint8Array(readFileSync(entry.replace(/index\.js$/, "glue.wasm")));
}

/** A module with one memory section `(memory 1 2)` and one function import. */
const TINY = Uint8Array.from([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x04,
  0x01,
  0x60,
  0x00,
  0x00, // type: () -> ()
  0x02,
  0x07,
  0x01,
  0x01,
  0x65,
  0x01,
  0x66,
  0x00,
  0x00, // import e.f (func type 0)
  0x05,
  0x04,
  0x01,
  0x01,
  0x01,
  0x02, // memory: one, min 1, max 2
  0x07,
  0x0a,
  0x01,
  0x06,
  0x6d,
  0x65,
  0x6d,
  0x6f,
  0x72,
  0x79,
  0x02,
  0x00, // export "memory"
]);

describe("importSharedMemory", () => {
  it("turns the defined memory into a shared env.memory import with the same limits", () => {
    const rewritten = importSharedMemory(TINY);
    expect(rewritten?.limits).toEqual({ initialPages: 1, maximumPages: 2 });
    const bytes = rewritten?.bytes ?? new Uint8Array();
    expect(wasmApi().validate(bytes)).toBe(true);
    const api = wasmApi() as unknown as {
      Module: { imports(module: unknown): { module: string; name: string; kind: string }[] };
    };
    const module = new (wasmApi().Module)(bytes);
    expect(api.Module.imports(module)).toEqual([
      { module: "e", name: "f", kind: "function" },
      { module: "env", name: "memory", kind: "memory" },
    ]);
    const memory = createSharedMemory({ initialPages: 1, maximumPages: 2 });
    const instance = new (wasmApi().Instance)(module, { e: { f: () => {} }, env: { memory } });
    expect(instance.exports.memory).toBe(memory);
  });

  it("leaves a module alone when its memory has no maximum or is imported already", () => {
    // The same module with `(memory 1)`: the memory section is bytes 23..28 of TINY.
    const noMax = Uint8Array.from([
      ...TINY.subarray(0, 23),
      ...[0x05, 0x03, 0x01, 0x00, 0x01],
      ...TINY.subarray(29),
    ]);
    expect(wasmApi().validate(noMax)).toBe(true);
    expect(importSharedMemory(noMax)).toBe(undefined);
    const rewritten = importSharedMemory(TINY);
    expect(rewritten === undefined ? "none" : importSharedMemory(rewritten.bytes)).toBe(undefined);
    expect(importSharedMemory(Uint8Array.from([1, 2, 3]))).toBe(undefined);
  });

  it("rewrites wasmoon's module into a valid one (16 MiB to 2 GiB, shared)", () => {
    const rewritten = importSharedMemory(glueWasm());
    expect(rewritten?.limits).toEqual({ initialPages: 256, maximumPages: 32768 });
    expect(wasmApi().validate(rewritten?.bytes ?? new Uint8Array())).toBe(true);
  });
});
