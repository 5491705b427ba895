import type { EngineError } from "../engine-error";
import type { LuaValue } from "./values";

/** Why a block failed. */
export type BlockFailureReason =
  /** A Lua error was raised and not caught (LUA_ERRRUN, or LUA_ERRERR). */
  | "error"
  /** Lua ran out of memory under the VM's limit (LUA_ERRMEM: `not enough memory`). */
  | "memory"
  /** The VM was cancelled (or closed) while the block ran or waited. */
  | "cancelled"
  /** The chunk did not load: a syntax error in source, or bytecode Lua rejects. */
  | "load";

/** A block that ran to its end: the values it returned, read into JavaScript. */
export interface BlockSuccess {
  readonly ok: true;
  readonly values: LuaValue[];
  /**
   * The positions (0-based) in `values` of Lua floats: a float with an integral value reads as
   * a JavaScript number like an integer does, and Lua writes it `5.0`, not `5`. Absent when
   * no returned value is a float.
   */
  readonly floats?: readonly number[];
}

/** A block that did not run to its end. */
export interface BlockFailure {
  readonly ok: false;
  readonly reason: BlockFailureReason;
  /** The raised Lua value read into JavaScript (a table becomes an object); `"cancelled"` when cancelled. */
  readonly error: LuaValue;
  /**
   * The error as text: a string as is, a number as Lua writes it, anything else as
   * `(error object is a {type} value)`.
   */
  readonly message: string;
  /**
   * `luaL_traceback` of the block's thread where the error was raised (or where the cancellation
   * stopped it), starting `stack traceback:`; empty when there is none (load failures, a VM
   * closed while the block waited, runPrivileged).
   */
  readonly traceback: string;
  /**
   * Present when the raised value is one of the VM's error values (see installErrors): the Engine
   * error it carries (kind, message, fields, quota mark). A table that only looks like one (built
   * by prompt code) leaves this undefined.
   */
  readonly errorValue?: EngineError;
}

/** The outcome of running one block. */
export type BlockOutcome = BlockSuccess | BlockFailure;

/** What runBlock and runPrivileged run: bytecode from LuaRuntime.compile, or Lua source text. */
export type BlockChunk =
  | {
      /** Lua 5.4 bytecode as produced by LuaRuntime.compile (trusted: never pass foreign bytecode). */
      readonly bytecode: Uint8Array;
      /** Used only in load error messages; the bytecode carries the name it was compiled under. */
      readonly chunkName: string;
      /** Values the chunk receives as `...`. */
      readonly args?: readonly LuaValue[];
    }
  | {
      /** Lua source, compiled on the spot as a text chunk. */
      readonly source: string | Uint8Array;
      /** The chunk name, such as `line 14` (see chunkNameForLine). */
      readonly chunkName: string;
      /** Values the chunk receives as `...`. */
      readonly args?: readonly LuaValue[];
    };
