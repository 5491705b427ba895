import { addRawFunction, pushRawClosure, setRawField } from "../state/raw-lua";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushPrivate } from "../vm/sandbox";
import type { HostFunction, LuaValue } from "../vm/values";
import {
  createGlobalCheck,
  refuseSealedWrite,
  refuseVarWrite,
  tracebackFunction,
} from "./host-functions";
import { PRELUDE_VAR_METATABLE_TEXT, preludeLoadFailureMessage } from "./messages";
import {
  PRELUDE_INSTALL_KEY,
  PRELUDE_TRACEBACK_FIELD,
  PRELUDES_CHUNK_NAME,
  PRELUDES_DRIVER_CHUNK_NAME,
  preludesBytecode,
} from "./preludes-lua";

/**
 * One Pack prelude to install: its Pack id (`...` at its top level) and its chunk, either Lua
 * source text (loaded in text mode under `pack:{pack}`) or the bytecode LuaRuntime.compile made
 * of that text under {@link preludeChunkName}`(pack)` (the same chunk, loaded faster).
 */
export type PreludeChunk =
  | { readonly pack: string; readonly source: string }
  | { readonly pack: string; readonly bytecode: Uint8Array };

/** How {@link installPreludes} ended. */
export type PreludeInstallOutcome =
  /** Every prelude installed its globals. */
  | { readonly ok: true }
  /** The VM was cancelled while a prelude loaded (a store call waited, or a loop ran). */
  | { readonly ok: false; readonly reason: "cancelled" }
  /**
   * A prelude did not load (compile error, raise, a tool call, memory), or one of its globals
   * was refused; `message` is the run error's whole message.
   */
  | {
      readonly ok: false;
      readonly reason: "load" | "refused";
      readonly pack: string;
      readonly message: string;
    };

/** Options of {@link installPreludes}. */
export interface PreludeInstallOptions {
  /**
   * The global table whose functions run directly while a prelude loads (tools.txt "Store calls
   * while a prelude loads"); `store` by default.
   */
  readonly storeGlobal?: string;
}

const INSTALLED: PreludeInstallOutcome = { ok: true };
const CANCELLED: PreludeInstallOutcome = { ok: false, reason: "cancelled" };

/**
 * Installs Pack preludes into a section VM, in order (tools.txt "Pack preludes"). Call it after
 * the Engine globals prelude code sees (installErrors, the guard, iteration, var, the store,
 * untrusted, json, tools) and before `require` exists.
 *
 * Each prelude runs once, as top-level code with `...` = its Pack id, in a coroutine and a
 * restricted environment of its own that its functions keep: the base functions `assert`,
 * `error`, `getmetatable`, `ipairs`, `next`, `pairs`, `pcall`, `select`, `setmetatable`,
 * `tonumber`, `tostring`, `type`, `xpcall`, the `string`, `table` and `math` libraries, the
 * `tools`, `store`, `untrusted` and `json` globals (the section's own values), and a read-only
 * `var` that reads the section's var live at every depth. While it loads, calls of the store
 * global's functions run directly (the effect goes out from the install's own thread and the
 * result comes back), and any other suspending call fails with `attempt to yield across a
 * C-call boundary` before it can suspend. Then its assigned globals are checked in `pairs`
 * order (names bytewise): a key that is not a UTF-8 string, a reserved name, or a name an
 * earlier prelude defines refuses the prelude before any of its globals installs. The others
 * become real globals: tables behind an empty proxy sealed at its top level (`{global} is
 * sealed`, writes refused, `pairs` empty), other values as they are.
 *
 * Resolves with how it ended; a prelude's failure never rejects. Rejects only when the VM is
 * closed or misused.
 */
export async function installPreludes(
  vm: LuaVm,
  preludes: readonly PreludeChunk[],
  options: PreludeInstallOptions = {},
): Promise<PreludeInstallOutcome> {
  if (preludes.length === 0) return INSTALLED;
  const state = VmHandle.stateOf(vm);
  const { kernel, L } = state;
  const bytecode = preludesBytecode(vm);
  state.hostOp(() => {
    pushPrivate(state);
    const P = kernel.x.lua_gettop(L);
    pushRawClosure(kernel, L, addRawFunction(state, "traceback", tracebackFunction(kernel)), 0);
    setRawField(kernel, L, P, PRELUDE_TRACEBACK_FIELD);
    kernel.x.lua_settop(L, P - 1);
  });
  const chunks: LuaValue[] = preludes.map((chunk) =>
    "source" in chunk
      ? { pack: chunk.pack, source: chunk.source }
      : { pack: chunk.pack, bytecode: chunk.bytecode },
  );
  let loading = preludes[0]?.pack ?? "";
  const begin: HostFunction = (call) => {
    loading = call.text(1) ?? "";
  };
  const setup = vm.runPrivileged({
    bytecode: bytecode.setup,
    chunkName: PRELUDES_CHUNK_NAME,
    args: [
      PRELUDE_INSTALL_KEY,
      chunks,
      begin,
      createGlobalCheck(),
      refuseSealedWrite,
      refuseVarWrite,
      options.storeGlobal ?? "store",
      PRELUDE_TRACEBACK_FIELD,
      PRELUDE_VAR_METATABLE_TEXT,
    ],
  });
  if (!setup.ok) {
    if (setup.reason === "cancelled") return CANCELLED;
    // The install's own code failed (memory exhausted around a loading prelude): that prelude
    // did not load.
    return failedAt(loading, setup.message);
  }
  if (setup.values[0] !== "wait") return outcomeOf(setup.values);
  // A loading prelude makes a store call: the rest of the install runs in a block, whose
  // thread can suspend on it.
  const rest = await vm.runBlock({
    bytecode: bytecode.driver,
    chunkName: PRELUDES_DRIVER_CHUNK_NAME,
    args: [PRELUDE_INSTALL_KEY],
  });
  if (vm.cancelled || (!rest.ok && rest.reason === "cancelled")) return CANCELLED;
  if (!rest.ok) return failedAt(loading, rest.message);
  return outcomeOf(rest.values);
}

/** The outcome the install's Lua returned: nothing, or how a prelude failed. */
function outcomeOf(values: readonly LuaValue[]): PreludeInstallOutcome {
  const [kind, pack, message, isErrorValue, traceback] = values;
  if (kind === null || kind === undefined) return INSTALLED;
  const packId = String(pack);
  const text = String(message);
  if (kind === "refused") return { ok: false, reason: "refused", pack: packId, message: text };
  const where = typeof traceback === "string" ? traceback : "";
  const located = isErrorValue === true ? withRaisePoint(text, where, packId) : text;
  return {
    ok: false,
    reason: "load",
    pack: packId,
    message: preludeLoadFailureMessage(packId, located, where),
  };
}

/** A load failure of `pack` with a message and no traceback. */
function failedAt(pack: string, message: string): PreludeInstallOutcome {
  return { ok: false, reason: "load", pack, message: preludeLoadFailureMessage(pack, message) };
}

/**
 * An error value's message (raised with no position) after the prelude line that raised it:
 * the first `pack:{pack}:{line}:` frame of the traceback.
 */
function withRaisePoint(message: string, traceback: string, pack: string): string {
  const marker = `\tpack:${pack}:`;
  const start = traceback.indexOf(marker);
  if (start < 0) return message;
  const line = /^\d+/.exec(traceback.slice(start + marker.length));
  return line === null ? message : `pack:${pack}:${line[0]}: ${message}`;
}
