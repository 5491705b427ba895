/**
 * json.decode and json.decode_lines as raw C functions: the argument check, then the streaming
 * decoder pushing straight onto the calling thread's stack.
 */

import { argumentError, EngineError } from "../engine-error";
import { JsonDecodeError, jsonInputTooLargeError } from "../json/decode-error";
import { decodeJson, decodeJsonLines } from "../json/decoder";
import { JSON_DECODE_LIMITS, JSON_MAX_DEPTH } from "../json/limits";
import { expectsStringMessage } from "../json/messages";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import type { LuaDecodeSink } from "./decode-sink";
import { engineTypeName, ensureStack } from "./lua-api";

/** Stack slots one decode may need: each of 128 open containers plus an object's pending key. */
const DECODE_STACK_SLOTS = 2 * (JSON_MAX_DEPTH + 2) + 8;

/**
 * Decodes the JSON text in the Lua string at stack index `textIndex` onto `L` (one new slot on
 * top: the value, or json.decode_lines' marked list). `markerIndex` holds the list marker.
 * Refusals throw a `lua` {@link EngineError} whose message starts with `functionName`; a Lua
 * memory error raised while the value is built passes through unchanged (`limitBytes` is the
 * VM's memory limit, see ensureStack).
 */
export function decodeLuaString(
  kernel: LuaKernel,
  sink: LuaDecodeSink,
  L: LuaState,
  textIndex: number,
  markerIndex: number,
  functionName: string,
  lines: boolean,
  limitBytes: number,
): void {
  const { x } = kernel;
  const ptr = x.lua_tolstring(L, textIndex, kernel.lenCell);
  const length = kernel.heap.u32()[kernel.lenCell >>> 2] ?? 0;
  if (length > JSON_DECODE_LIMITS.maxInputBytes) {
    throw new EngineError(
      "lua",
      jsonInputTooLargeError(functionName, JSON_DECODE_LIMITS.maxInputBytes).message,
    );
  }
  ensureStack(x, L, DECODE_STACK_SLOTS, limitBytes);
  // The decoder reads a JS copy: a view of wasm memory would be emptied if the memory grew while
  // the sink allocates. Unescaped strings are still pushed from the Lua string itself.
  const text = kernel.heap.u8().slice(ptr, ptr + length);
  sink.start(L, text, ptr, markerIndex);
  try {
    if (lines) decodeJsonLines(text, sink, JSON_DECODE_LIMITS, functionName);
    else decodeJson(text, sink, JSON_DECODE_LIMITS, functionName);
  } catch (error) {
    if (error instanceof JsonDecodeError) throw new EngineError("lua", error.message);
    throw error; // Lua's own unwinding (a memory error) passes through untouched
  } finally {
    sink.finish();
  }
}

/**
 * The raw C function behind json.decode (`lines` false) or json.decode_lines (`lines` true):
 * argument 1 must be a string (no number coercion); the list marker is upvalue `markerIndex`.
 */
export function createDecodeFunction(
  kernel: LuaKernel,
  sink: LuaDecodeSink,
  markerIndex: number,
  lines: boolean,
  limitBytes: number,
): RawCFunction {
  const functionName = lines ? "json.decode_lines" : "json.decode";
  return (L: LuaState): number => {
    if (kernel.x.lua_type(L, 1) !== LuaTypeTag.STRING) {
      throw argumentError(expectsStringMessage(functionName, engineTypeName(kernel.x, L, 1)));
    }
    decodeLuaString(kernel, sink, L, 1, markerIndex, functionName, lines, limitBytes);
    return 1;
  };
}
