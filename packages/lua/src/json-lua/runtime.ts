/**
 * What every VM of a process shares for json: one encoder and one decode sink (no Lua code ever
 * runs inside a json call, so calls never overlap).
 */

import type { LuaKernel } from "../vm/kernel";
import type { LuaExports } from "../wasm-exports";
import { LuaDecodeSink } from "./decode-sink";
import { LuaJsonEncoder } from "./encoder";
import { jsonNullAddress } from "./private-values";

/** The process-wide json machinery of one kernel. */
export interface JsonLuaRuntime {
  readonly kernel: LuaKernel;
  readonly x: LuaExports;
  readonly nullAddress: number;
  readonly encoder: LuaJsonEncoder;
  readonly sink: LuaDecodeSink;
}

const runtimes = new WeakMap<LuaKernel, JsonLuaRuntime>();

/** The json machinery for `kernel`, made on first use. */
export function jsonRuntimeFor(kernel: LuaKernel): JsonLuaRuntime {
  let runtime = runtimes.get(kernel);
  if (runtime === undefined) {
    const x = kernel.x;
    const nullAddress = jsonNullAddress(kernel);
    runtime = {
      kernel,
      x,
      nullAddress,
      encoder: new LuaJsonEncoder(kernel, x, nullAddress),
      sink: new LuaDecodeSink(kernel, nullAddress),
    };
    runtimes.set(kernel, runtime);
  }
  return runtime;
}
