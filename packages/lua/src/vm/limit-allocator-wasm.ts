import { leb, sleb, wasmName } from "../wasm-leb";

/**
 * The bytes of a tiny hand-assembled WebAssembly module: a Lua allocator (`lua_Alloc`) that counts
 * the bytes a state holds and refuses to grow past a limit, calling wasmoon's own `realloc` and
 * `free` directly, wasm to wasm, with no JavaScript on the allocation path.
 *
 * It imports `env.memory` (wasmoon's linear memory), `env.realloc` and `env.free` (wasmoon's
 * exports), and exports `alloc`. Its `ud` is a 12-byte cell in that memory:
 * `[ud+0]` bytes in use (u32), `[ud+4]` limit in bytes (u32), `[ud+8]` refusals (u32).
 * Written as WAT:
 *
 * ```wat
 * (func $alloc (param $ud i32) (param $ptr i32) (param $osize i32) (param $nsize i32)
 *              (result i32) (local $old i32) (local $new i32)
 *   ;; Lua passes a type tag, not a size, in osize when ptr is NULL
 *   (local.set $old (select (local.get $osize) (i32.const 0) (local.get $ptr)))
 *   (if (i32.eqz (local.get $nsize)) (then
 *     (call $free (local.get $ptr))
 *     (i32.store offset=0 (local.get $ud)
 *       (i32.sub (i32.load offset=0 (local.get $ud)) (local.get $old)))
 *     (return (i32.const 0))))
 *   ;; only growth can be refused: Lua assumes shrinking never fails
 *   (if (i32.gt_u (local.get $nsize) (local.get $old)) (then
 *     (if (i64.gt_u
 *           (i64.add (i64.load32_u offset=0 (local.get $ud))
 *                    (i64.extend_i32_u (i32.sub (local.get $nsize) (local.get $old))))
 *           (i64.load32_u offset=4 (local.get $ud)))
 *       (then
 *         (i32.store offset=8 (local.get $ud)
 *           (i32.add (i32.load offset=8 (local.get $ud)) (i32.const 1)))
 *         (return (i32.const 0))))))
 *   (local.set $new (call $realloc (local.get $ptr) (local.get $nsize)))
 *   (if (i32.eqz (local.get $new)) (then (return (i32.const 0))))
 *   (i32.store offset=0 (local.get $ud)
 *     (i32.add (i32.sub (i32.load offset=0 (local.get $ud)) (local.get $old))
 *              (local.get $nsize)))
 *   (local.get $new))
 * ```
 */
export function limitAllocatorWasm(options: AllocatorWasmOptions = {}): Uint8Array {
  const { gate } = options;
  return new Uint8Array([
    ...HEADER,
    ...TYPE_SECTION,
    ...importSection(gate !== undefined),
    ...FUNC_AND_EXPORT,
    ...code(gate),
  ]);
}

/** Options of {@link limitAllocatorWasm}. */
export interface AllocatorWasmOptions {
  /**
   * For a shared memory: the address of the watchdog's free gate (cancel-watchdog.ts). The
   * module then imports a shared memory, and every free first waits while the i32 at `gate` is
   * non-zero (`i32.atomic.load` in a loop), so no block Lua frees (a CallInfo, a thread) can be
   * freed while the watchdog writes hook fields into the running state. Allocations and
   * reallocations never wait.
   */
  readonly gate?: number;
}

/** A section: id, byte length, body. */
function section(id: number, body: readonly number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

/** A vector: element count, then the elements. */
function vec(items: readonly (readonly number[])[]): number[] {
  return [...leb(items.length), ...items.flat()];
}

const I32 = 0x7f;
const FUNC_TYPE = 0x60;

/** `\0asm`, version 1. */
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** Type 0: alloc (i32 i32 i32 i32) -> i32; type 1: realloc (i32 i32) -> i32; type 2: free (i32). */
const TYPE_SECTION = section(
  1,
  vec([
    [FUNC_TYPE, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])],
    [FUNC_TYPE, ...vec([[I32], [I32]]), ...vec([[I32]])],
    [FUNC_TYPE, ...vec([[I32]]), ...vec([])],
  ]),
);

/**
 * env.memory (min 0 pages, no max; shared: min 0, max 65536 pages, the wasm32 maximum, so any
 * shared memory matches), env.realloc (func 0), env.free (func 1).
 */
function importSection(shared: boolean): number[] {
  const memoryLimits = shared ? [0x03, 0x00, ...leb(65536)] : [0x00, 0x00];
  return section(
    2,
    vec([
      [...wasmName("env"), ...wasmName("memory"), 0x02, ...memoryLimits],
      [...wasmName("env"), ...wasmName("realloc"), 0x00, 1],
      [...wasmName("env"), ...wasmName("free"), 0x00, 2],
    ]),
  );
}

/** One defined function (index 2) of type 0, exported as "alloc". */
const FUNC_AND_EXPORT = [
  ...section(3, vec([[0]])),
  ...section(7, vec([[...wasmName("alloc"), 0x00, 2]])),
];

// Locals: 0 ud, 1 ptr, 2 osize, 3 nsize, 4 old, 5 new. Function indices: 0 realloc, 1 free.
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const CONST = 0x41;
const IF_VOID = [0x04, 0x40];
const END = 0x0b;
const RETURN = 0x0f;
const CALL = 0x10;
const LOAD_I32 = (offset: number): number[] => [0x28, 2, offset];
const STORE_I32 = (offset: number): number[] => [0x36, 2, offset];
const LOAD_I64_U32 = (offset: number): number[] => [0x35, 2, offset];

const LOOP_VOID = [0x03, 0x40];
const BR_IF = 0x0d;
const ATOMIC_LOAD_I32 = [0xfe, 0x10, 2, 0];

/** `loop (br_if 0 (i32.atomic.load (i32.const gate))) end`: waits while the gate is set. */
function waitGate(gate: number | undefined): number[] {
  if (gate === undefined) return [];
  return [...LOOP_VOID, CONST, ...sleb(gate), ...ATOMIC_LOAD_I32, BR_IF, 0, END];
}

const body = (gate: number | undefined): number[] => [
  // old = ptr ? osize : 0
  ...[GET, 2, CONST, 0, GET, 1, 0x1b, SET, 4],
  // if nsize == 0: (wait while the gate is set;) free(ptr); used -= old; return NULL
  ...[GET, 3, 0x45, ...IF_VOID],
  ...waitGate(gate),
  ...[GET, 1, CALL, 1],
  ...[GET, 0, GET, 0, ...LOAD_I32(0), GET, 4, 0x6b, ...STORE_I32(0)],
  ...[CONST, 0, RETURN, END],
  // if nsize > old and used + (nsize - old) > limit (in i64): refusals++; return NULL
  ...[GET, 3, GET, 4, 0x4b, ...IF_VOID],
  ...[GET, 0, ...LOAD_I64_U32(0), GET, 3, GET, 4, 0x6b, 0xad, 0x7c],
  ...[GET, 0, ...LOAD_I64_U32(4), 0x56, ...IF_VOID],
  ...[GET, 0, GET, 0, ...LOAD_I32(8), CONST, 1, 0x6a, ...STORE_I32(8)],
  ...[CONST, 0, RETURN, END, END],
  // new = realloc(ptr, nsize); if new == NULL return NULL
  ...[GET, 1, GET, 3, CALL, 0, TEE, 5, 0x45, ...IF_VOID, CONST, 0, RETURN, END],
  // used = used - old + nsize; return new
  ...[GET, 0, GET, 0, ...LOAD_I32(0), GET, 4, 0x6b, GET, 3, 0x6a, ...STORE_I32(0)],
  ...[GET, 5, END],
];

/** The code section: one body with two i32 locals. */
function code(gate: number | undefined): number[] {
  const bytes = [...vec([[2, I32]]), ...body(gate)];
  return section(10, vec([[...leb(bytes.length), ...bytes]]));
}
