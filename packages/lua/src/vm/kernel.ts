import type { LuaModule, LuaState, Ptr } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { FnPtr, LuaExports, LuaInstance, UnwindProbe } from "../wasm-exports";
import { CancelWatchdog, type SharedFlag, type VmWatch } from "./cancel-watchdog";
import { EXTRASPACE_BYTES } from "./constants";
import { Heap } from "./heap";
import { probeHookLayout } from "./hook-layout";
import { installLimitAllocator, MAX_LIMIT_BYTES, MemoryAccount } from "./limit-allocator";
import { LuaPanicError } from "./panic";

/** What the kernel routes each wasm callback to: one per open Lua state. */
export interface KernelClient {
  /** The shared lua_CFunction: a host function was called on thread `L`. */
  dispatch(L: LuaState): number;
  /** The shared lua_KFunction: thread `L` resumed after a host function suspended it. */
  continueCall(L: LuaState): number;
  /** The shared count hook fired on thread `L`. */
  hook(L: LuaState): void;
}

/** Strings up to this many bytes are staged in the kernel's scratch buffer; longer ones get their own. */
const SCRATCH_MAX_BYTES = 64 * 1024;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * What every Lua VM in the process shares: the wasm instance's raw exports, views of its memory,
 * the function pointers added once (the limit allocator, the host-function dispatcher, its
 * continuation, the count hook, the panic function), scratch cells for out-parameters and a
 * scratch buffer for strings.
 *
 * Each state records its client id in its `LUA_EXTRASPACE` (the 4 bytes before `lua_State*`),
 * which Lua copies into every thread the state creates, so a callback that receives any thread
 * finds its VM with one memory read and one map lookup.
 */
export class LuaKernel {
  readonly module: LuaModule;
  /** The wasm instance's own exports: the C API without emscripten's wrappers. */
  readonly x: LuaExports;
  readonly heap: Heap;
  /** `lua_Alloc` that enforces a per-state byte limit (see limit-allocator-wasm.ts). */
  readonly allocator: FnPtr;
  /** The one lua_CFunction behind every host function. */
  readonly dispatcher: FnPtr;
  /** The lua_KFunction a suspended host call resumes through. */
  readonly continuation: FnPtr;
  /** The lua_Hook used for cancellation. */
  readonly hook: FnPtr;
  /** The lua_atpanic function: throws a {@link LuaPanicError} instead of letting Lua abort(). */
  readonly panic: FnPtr;
  /** A `size_t` out-cell (string lengths). */
  readonly lenCell: Ptr;
  /** An `int` out-cell (`lua_resume`'s result count, `isnum` flags). */
  readonly intCell: Ptr;

  /**
   * The watchdog that arms the hook of running Lua from another thread (hook-free cancellation),
   * when the memory is shared and the hook layout was verified; else undefined, and
   * {@link watchdogUnavailable} says why.
   */
  readonly watchdog: CancelWatchdog | undefined;
  readonly watchdogUnavailable: string | undefined;

  private readonly unwind: UnwindProbe;
  private readonly clients = new Map<number, KernelClient>();
  private nextClientId = 1;
  private scratch: Ptr;
  private scratchBytes: number;
  private readonly cStrings = new Map<string, Ptr>();

  constructor(module: LuaModule, instance: LuaInstance) {
    const { exports } = instance;
    this.module = module;
    this.x = exports;
    this.unwind = instance.unwind;
    this.heap = instance.sharedMemory ? new Heap(exports.memory, module) : new Heap(exports.memory);
    this.lenCell = this.malloc(8);
    this.intCell = this.malloc(8);
    this.scratchBytes = 1024;
    this.scratch = this.malloc(this.scratchBytes);
    const gate = instance.sharedMemory ? this.malloc(4) : undefined;
    if (gate !== undefined) this.heap.i32()[gate >> 2] = 0;
    this.allocator = installLimitAllocator(module, exports, gate);
    this.dispatcher = module.addFunction((L) => this.clientOf(L)?.dispatch(L) ?? 0, "ii");
    this.continuation = module.addFunction((L) => this.clientOf(L)?.continueCall(L) ?? 0, "iiii");
    this.hook = module.addFunction((L) => {
      this.clientOf(L)?.hook(L);
      return undefined;
    }, "vii");
    this.panic = module.addFunction((L) => {
      throw new LuaPanicError(this.panicMessage(L));
    }, "ii");
    const layout = gate === undefined ? "the wasm memory is not shared" : this.probeLayout();
    if (typeof layout === "string" || gate === undefined) {
      this.watchdog = undefined;
      this.watchdogUnavailable = typeof layout === "string" ? layout : "no free gate";
    } else {
      this.watchdog = new CancelWatchdog(exports.memory, gate, this.hook, layout);
      this.watchdogUnavailable = undefined;
    }
  }

  /**
   * A watch for a VM whose hook the watchdog arms when one of `flags` is set, or undefined (no
   * watchdog, not running yet, or full): the VM then arms its own hook (hook-control.ts starts
   * the watchdog once such a VM has run long enough).
   */
  watchVm(flags: readonly SharedFlag[], period: number): VmWatch | undefined {
    return this.watchdog?.watch(flags, period);
  }

  /** Finds and verifies the hook fields' layout on a scratch state (hook-layout.ts). */
  private probeLayout(): ReturnType<typeof probeHookLayout> {
    const accounts: MemoryAccount[] = [];
    try {
      return probeHookLayout({
        x: this.x,
        heap: this.heap,
        hook: this.hook,
        newState: () => {
          const account = new MemoryAccount(this.x, this.heap, MAX_LIMIT_BYTES);
          accounts.push(account);
          return this.x.lua_newstate(this.allocator, account.cell);
        },
        allocText: (text) => {
          const bytes = utf8Encoder.encode(`${text}\0`);
          const ptr = this.malloc(bytes.length);
          this.heap.u8().set(bytes, ptr);
          return { ptr, length: bytes.length - 1 };
        },
        register: (client) => {
          let id = 0;
          this.register((assigned) => {
            id = assigned;
            return client;
          });
          return id;
        },
        unregister: (id) => this.unregister(id),
        tagState: (L, id) => this.tagState(L, id),
      });
    } catch (error) {
      return `the layout probe threw: ${String(error)}`;
    } finally {
      for (const account of accounts) account.free();
    }
  }

  /**
   * Whether `error` is Lua unwinding through JavaScript (an emscripten longjmp: a Lua error or a
   * yield), which must be rethrown untouched, rather than an exception to turn into a Lua error.
   */
  isUnwinding(error: unknown): boolean {
    return error === Number.POSITIVE_INFINITY && this.unwind.inFlight;
  }

  /** Clears the unwind flag; call whenever control is back after a normal return from Lua. */
  clearUnwinding(): void {
    this.unwind.inFlight = false;
  }

  /**
   * Registers a state's callbacks: `create` receives the new client id (to write into the
   * state's extra space, see tagState) and returns the client.
   */
  register<T extends KernelClient>(create: (id: number) => T): T {
    const id = this.nextClientId++;
    const client = create(id);
    this.clients.set(id, client);
    return client;
  }

  /** Forgets a closed state's callbacks. */
  unregister(id: number): void {
    this.clients.delete(id);
  }

  /** Number of states registered (open). */
  get openCount(): number {
    return this.clients.size;
  }

  /** Writes `id` into the extra space of a new main thread (threads copy it on creation). */
  tagState(L: LuaState, id: number): void {
    this.heap.i32()[(L - EXTRASPACE_BYTES) >> 2] = id;
  }

  /** The client of the state that thread `L` belongs to. */
  clientOf(L: LuaState): KernelClient | undefined {
    return this.clients.get(this.heap.i32()[(L - EXTRASPACE_BYTES) >> 2] ?? 0);
  }

  /** `malloc` that throws instead of returning NULL. */
  malloc(size: number): Ptr {
    const ptr = this.x.malloc(size);
    if (ptr === 0) throw new RangeError(`wasm malloc of ${size} bytes failed`);
    return ptr;
  }

  /** Pushes `text` as its UTF-8 bytes (any length, NUL included). May raise a Lua memory error. */
  pushText(L: LuaState, text: string): void {
    if (text.length === 0) {
      this.x.lua_pushlstring(L, this.scratch, 0);
      return;
    }
    const maxBytes = text.length * 3;
    if (maxBytes <= SCRATCH_MAX_BYTES) {
      this.ensureScratch(maxBytes);
      const { written } = utf8Encoder.encodeInto(
        text,
        this.heap.u8().subarray(this.scratch, this.scratch + maxBytes),
      );
      this.x.lua_pushlstring(L, this.scratch, written);
      return;
    }
    this.pushBytes(L, utf8Encoder.encode(text));
  }

  /** Pushes `bytes` as a Lua string. May raise a Lua memory error. */
  pushBytes(L: LuaState, bytes: Uint8Array): void {
    if (bytes.length <= SCRATCH_MAX_BYTES) {
      this.ensureScratch(bytes.length);
      this.heap.u8().set(bytes, this.scratch);
      this.x.lua_pushlstring(L, this.scratch, bytes.length);
      return;
    }
    const block = this.malloc(bytes.length);
    try {
      this.heap.u8().set(bytes, block);
      this.x.lua_pushlstring(L, block, bytes.length);
    } finally {
      this.x.free(block);
    }
  }

  /**
   * Copies the bytes of the string at `idx`. Only for values that are strings: a number would be
   * converted in place, as lua_tolstring does.
   */
  readBytes(L: LuaState, idx: number): Uint8Array {
    const ptr = this.x.lua_tolstring(L, idx, this.lenCell);
    const length = this.heap.u32()[this.lenCell >>> 2] ?? 0;
    return this.heap.u8().slice(ptr, ptr + length);
  }

  /** Decodes the string at `idx` from UTF-8 (see {@link readBytes} for the caveat). */
  readText(L: LuaState, idx: number): string {
    const ptr = this.x.lua_tolstring(L, idx, this.lenCell);
    const length = this.heap.u32()[this.lenCell >>> 2] ?? 0;
    return decodeUtf8(this.heap.u8(), ptr, length);
  }

  /**
   * A NUL-terminated copy of `name` that lives as long as the process: only for the package's
   * own constant names (library and field names), never for caller-supplied text.
   */
  cString(name: string): Ptr {
    let ptr = this.cStrings.get(name);
    if (ptr === undefined) {
      const bytes = utf8Encoder.encode(`${name}\0`);
      ptr = this.malloc(bytes.length);
      this.heap.u8().set(bytes, ptr);
      this.cStrings.set(name, ptr);
    }
    return ptr;
  }

  private ensureScratch(bytes: number): void {
    if (bytes <= this.scratchBytes) return;
    let size = this.scratchBytes;
    while (size < bytes) size *= 2;
    const next = this.malloc(size);
    this.x.free(this.scratch);
    this.scratch = next;
    this.scratchBytes = size;
  }

  /** The error object on top of a panicking state, when it is a string. */
  private panicMessage(L: LuaState): string {
    if (this.x.lua_type(L, -1) !== LuaTypeTag.STRING) return "unprotected error in a Lua call";
    return this.readText(L, -1);
  }
}

/** Decodes `length` UTF-8 bytes at `ptr`; short ASCII strings skip the TextDecoder. */
export function decodeUtf8(heap: Uint8Array, ptr: Ptr, length: number): string {
  if (length <= 24) {
    let text = "";
    for (let i = 0; i < length; i++) {
      const byte = heap[ptr + i] ?? 0;
      if (byte >= 0x80) return utf8Decoder.decode(heap.subarray(ptr, ptr + length));
      text += String.fromCharCode(byte);
    }
    return text;
  }
  return utf8Decoder.decode(heap.subarray(ptr, ptr + length));
}
