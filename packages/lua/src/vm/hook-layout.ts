import type { LuaState, Ptr } from "../module";
import { LuaStatus } from "../raw-api";
import type { FnPtr, LuaExports } from "../wasm-exports";
import { LUA_MASKCOUNT } from "./constants";
import type { Heap } from "./heap";
import type { KernelClient } from "./kernel";

/**
 * Where `lua_sethook` writes, as byte offsets: in a `lua_State` the current CallInfo (`ci`) and
 * the hook fields, in a `CallInfo` the link to the caller, the call status and the trap flag the
 * interpreter re-reads on every jump. With these another thread can do what `lua_sethook` does
 * (cancel-watchdog.ts), the way stock Lua's standalone interpreter does from a signal handler.
 */
export interface HookLayout {
  readonly stateCi: number;
  readonly stateHook: number;
  readonly stateBaseHookCount: number;
  readonly stateHookCount: number;
  readonly stateHookMask: number;
  readonly ciPrevious: number;
  readonly ciCallStatus: number;
  readonly ciTrap: number;
  /** `CIST_C`: the call-status bit of a C function's CallInfo (which has no trap). */
  readonly cistC: number;
}

/** Lua 5.4's CallInfo on wasm32: previous at 8, `u.l.trap` at 20, callstatus (u16) at 34. */
const CI_PREVIOUS = 8;
const CI_TRAP = 20;
const CI_CALLSTATUS = 34;
const CIST_C = 1 << 1;
/** Bytes of a lua_State searched for its fields (sizeof(lua_State) is about 200 on wasm32). */
const STATE_SCAN_BYTES = 256;
/** Bytes of a CallInfo compared before and after lua_sethook (sizeof(CallInfo) is 36). */
const CI_BYTES = 36;
const PROBE_COUNT = 0x5a5a5;

/** What the probe needs from the kernel (it runs while the kernel is being built). */
export interface ProbeHost {
  readonly x: LuaExports;
  readonly heap: Heap;
  /** The kernel's hook function. */
  readonly hook: FnPtr;
  /** A new scratch main state (closed by the probe with `lua_close`), 0 on failure. */
  newState(): LuaState;
  /** Source text to a NUL-terminated buffer (freed by the caller with `x.free`). */
  allocText(text: string): { ptr: Ptr; length: number };
  /** Routes hook calls of a state to `client` (returns the id to tag the state with). */
  register(client: KernelClient): number;
  unregister(id: number): void;
  tagState(L: LuaState, id: number): void;
}

/**
 * Finds the layout on a scratch state and verifies it against what `lua_sethook` itself writes:
 * the `ci` field is the one word of a fresh thread that points into the thread (at its
 * `base_ci`, a C CallInfo with no caller); setting a hook must change exactly four words (the
 * hook, both counts, the mask), in that order at consecutive addresses; and inside a running Lua
 * function, a hook set anew must write 1 into exactly the CallInfo word taken as `trap`, and
 * nothing else of it. Returns the layout, or the first check that failed (then hook-free
 * cancellation is off and the count hook stays armed: lua-vm.md).
 */
export function probeHookLayout(host: ProbeHost): HookLayout | string {
  const { x, heap } = host;
  const L0 = host.newState();
  if (L0 === 0) return "no scratch state (lua_newstate failed)";
  const probe = new ProbeClient(host);
  const id = host.register(probe);
  try {
    host.tagState(L0, id);
    const T = x.lua_newthread(L0);
    const words = (at: Ptr, bytes: number): number[] => {
      const view = heap.i32();
      return Array.from({ length: bytes / 4 }, (_, i) => view[(at >> 2) + i] ?? 0);
    };
    const before = words(T, STATE_SCAN_BYTES);
    // `ci` points at `base_ci`, later in the same struct: a C CallInfo with no caller. (The
    // thread's stack may be allocated right after it, so other words can point nearby.)
    const inside = before
      .map((value, index) => ({ value, index }))
      .filter(
        ({ value, index }) =>
          value > T + index * 4 &&
          value < T + STATE_SCAN_BYTES - CI_BYTES &&
          words(value + CI_PREVIOUS, 4)[0] === 0 &&
          callStatus(heap, value) === CIST_C,
      );
    if (inside.length !== 1) {
      return `expected one lua_State word pointing at its base CallInfo, found ${inside.length}`;
    }
    const ciWord = inside[0] as { value: number; index: number };
    const baseCi = ciWord.value;

    x.lua_sethook(T, host.hook, LUA_MASKCOUNT, PROBE_COUNT);
    const after = words(T, STATE_SCAN_BYTES);
    const changed = after
      .map((value, index) => ({ value, index }))
      .filter(({ value, index }) => value !== before[index]);
    const [hook, base, count, mask] = changed;
    if (
      changed.length !== 4 ||
      hook === undefined ||
      base === undefined ||
      count === undefined ||
      mask === undefined ||
      hook.value !== host.hook ||
      base.value !== PROBE_COUNT ||
      count.value !== PROBE_COUNT ||
      count.index !== base.index + 1 ||
      mask.value !== LUA_MASKCOUNT ||
      mask.index !== count.index + 1
    ) {
      return `lua_sethook changed ${changed.length} words of lua_State, not hook, basehookcount, hookcount, hookmask`;
    }
    x.lua_sethook(T, 0, 0, 0);
    const cleared = words(T, STATE_SCAN_BYTES);
    if (cleared.some((value, index) => value !== before[index]))
      return "lua_sethook(L, NULL, 0, 0) left hook fields set";

    const layout: HookLayout = {
      stateCi: ciWord.index * 4,
      stateHook: hook.index * 4,
      stateBaseHookCount: base.index * 4,
      stateHookCount: count.index * 4,
      stateHookMask: mask.index * 4,
      ciPrevious: CI_PREVIOUS,
      ciCallStatus: CI_CALLSTATUS,
      ciTrap: CI_TRAP,
      cistC: CIST_C,
    };
    probe.expect(T, layout, baseCi);
    const chunk = host.allocText("local x = 0 for i = 1, 50 do x = x + i end return x");
    let status: number;
    try {
      status = x.luaL_loadbufferx(T, chunk.ptr, chunk.length, chunk.ptr, 0);
    } finally {
      x.free(chunk.ptr);
    }
    if (status !== LuaStatus.OK) return "the probe chunk did not load";
    x.lua_sethook(T, host.hook, LUA_MASKCOUNT, 3);
    const nres = x.malloc(4);
    try {
      status = x.lua_resume(T, L0, 0, nres);
    } finally {
      x.free(nres);
    }
    if (status !== LuaStatus.OK) return "the probe chunk failed";
    if (x.lua_tointegerx(T, -1, 0) !== 1275n) return "the probe chunk returned a wrong value";
    return probe.verdict ?? "the hook never ran inside the probe chunk";
  } finally {
    host.unregister(id);
    x.lua_close(L0);
  }
}

/** The callstatus (u16) of the CallInfo at `ci`. */
export function callStatus(heap: Heap, ci: Ptr): number {
  return ((heap.i32()[(ci + CI_CALLSTATUS - 2) >> 2] ?? 0) >>> 16) & 0xffff;
}

/** Receives the probe chunk's first hook call and checks the CallInfo fields there. */
class ProbeClient implements KernelClient {
  verdict: HookLayout | string | undefined;
  private readonly host: ProbeHost;
  private thread: LuaState = 0;
  private layout: HookLayout | undefined;
  private baseCi: Ptr = 0;

  constructor(host: ProbeHost) {
    this.host = host;
  }

  expect(thread: LuaState, layout: HookLayout, baseCi: Ptr): void {
    this.thread = thread;
    this.layout = layout;
    this.baseCi = baseCi;
  }

  dispatch(): number {
    return 0;
  }

  continueCall(): number {
    return 0;
  }

  hook(L: LuaState): void {
    const { layout } = this;
    if (this.verdict !== undefined || layout === undefined) return;
    try {
      this.verdict = this.check(L, layout);
    } catch (error) {
      this.verdict = `the probe hook threw: ${String(error)}`;
    }
    this.host.x.lua_sethook(L, 0, 0, 0);
  }

  private check(L: LuaState, layout: HookLayout): HookLayout | string {
    const { x, heap } = this.host;
    if (L !== this.thread) return "the hook ran on another thread";
    const i32 = heap.i32();
    const ci = i32[(L + layout.stateCi) >> 2] ?? 0;
    if (ci === this.baseCi || ci === 0) return "no Lua CallInfo while the hook runs";
    if ((callStatus(heap, ci) & layout.cistC) !== 0) return "the hooked CallInfo is a C CallInfo";
    if (i32[(ci + layout.ciPrevious) >> 2] !== this.baseCi)
      return "the hooked CallInfo's caller is not base_ci";
    const trapIndex = (ci + layout.ciTrap) >> 2;
    i32[trapIndex] = 0;
    const before = Array.from({ length: CI_BYTES / 4 }, (_, i) => i32[(ci >> 2) + i] ?? 0);
    x.lua_sethook(L, this.host.hook, LUA_MASKCOUNT, 3);
    const view = heap.i32();
    const after = Array.from({ length: CI_BYTES / 4 }, (_, i) => view[(ci >> 2) + i] ?? 0);
    const changed = after
      .map((value, index) => ({ value, index }))
      .filter(({ value, index }) => value !== before[index]);
    if (
      changed.length !== 1 ||
      changed[0]?.index !== layout.ciTrap / 4 ||
      changed[0]?.value !== 1
    ) {
      return "lua_sethook did not set exactly the CallInfo's trap word";
    }
    return layout;
  }
}
