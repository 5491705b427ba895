/**
 * The few parts of the JavaScript WebAssembly API this package uses, typed here because the
 * project's TypeScript libs (ES2023 + @types/node 20) do not declare the `WebAssembly` namespace.
 */

/** A `WebAssembly.Memory`: the linear memory of an instance. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/** A `WebAssembly.Table` of function references. */
export interface WasmTable {
  readonly length: number;
  get(index: number): unknown;
}

/** A `WebAssembly.Instance`. */
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

/** What `WebAssembly.instantiate(bytes, imports)` resolves to. */
export interface WasmInstantiated {
  readonly instance: WasmInstance;
}

/** The `WebAssembly` namespace object, reduced to what this package calls. */
export interface WasmApi {
  instantiate(source: unknown, imports?: unknown): Promise<WasmInstantiated | WasmInstance>;
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => unknown;
  Instance: new (module: unknown, imports: unknown) => WasmInstance;
}

/** The global `WebAssembly` namespace (present in every Node version this package supports). */
export function wasmApi(): WasmApi {
  return (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
}
