/**
 * Helpers for the tests of the state area: running a block in a VM set up by an install, and
 * running a section's blocks with var installed and read back.
 */
import { installErrors } from "../errors/install-errors";
import type { JsonObject, JsonValue } from "../json/value";
import { installJson } from "../json-lua/install";
import { loadLuaVmFactory } from "../vm/factory";
import { type LuaVm, type LuaVmOptions, VmHandle } from "../vm/lua-vm";
import type { BlockOutcome } from "../vm/outcome";
import { pushGlobals } from "../vm/sandbox";
import type { LuaValue } from "../vm/values";
import { installVar, type VarOptions } from "./var";
import { readBackVar } from "./var-read-back";

/** Runs `source` as a block named `line 1` and returns its first value, or throws its failure. */
export async function runValue(vm: LuaVm, source: string): Promise<LuaValue> {
  const outcome = await vm.runBlock({ source, chunkName: "line 1" });
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}

/** Runs `source` as a block that must fail and returns its error message. */
export async function runFailure(vm: LuaVm, source: string): Promise<string> {
  const outcome = await vm.runBlock({ source, chunkName: "line 1" });
  if (outcome.ok) throw new Error(`block succeeded with ${String(outcome.values[0])}`);
  return outcome.message;
}

/** A fresh VM set up by `install`, closed after `use` settles. */
export async function withStateVm<T>(
  install: (vm: LuaVm) => void,
  use: (vm: LuaVm) => Promise<T>,
  options?: LuaVmOptions,
): Promise<T> {
  const factory = await loadLuaVmFactory();
  const vm = factory.create(options);
  try {
    install(vm);
    return await use(vm);
  } finally {
    vm.close();
  }
}
/** What one section VM did: each block's outcome and var read back at its end (or the error). */
export interface SectionRun {
  readonly outcomes: BlockOutcome[];
  /** The first value of the last block that ran. */
  readonly result: unknown;
  /** The message of the block that failed, if one did (later blocks do not run). */
  readonly failure: string | undefined;
  /** var read back after the last block, or the read-back's error message. */
  readonly var: JsonObject | string;
}

/** How a test section VM is set up. */
export interface SectionSetup extends VarOptions {
  /** Also install the errors area (error values: err.kind) and json (json.encode, json.null). */
  readonly engine?: boolean;
  readonly vmOptions?: LuaVmOptions;
  readonly before?: (vm: LuaVm) => void;
}

/** Runs `blocks` in one fresh VM with var installed, as one section would (tests only). */
export async function runSection(
  blocks: readonly string[],
  setup: SectionSetup = {},
): Promise<SectionRun> {
  const factory = await loadLuaVmFactory();
  const vm = factory.create(setup.vmOptions);
  try {
    if (setup.engine === true) installErrors(vm);
    installVar(vm, setup.initial === undefined ? {} : { initial: setup.initial });
    if (setup.engine === true) installJson(vm);
    setup.before?.(vm);
    const outcomes: BlockOutcome[] = [];
    let result: unknown;
    let failure: string | undefined;
    for (const source of blocks) {
      const outcome = await vm.runBlock({ source, chunkName: "line 1" });
      outcomes.push(outcome);
      if (!outcome.ok) {
        failure = outcome.message;
        break;
      }
      result = outcome.values[0];
    }
    let data: JsonObject | string;
    try {
      data = readBackVar(vm);
    } catch (error) {
      data = error instanceof Error ? error.message : String(error);
    }
    return { outcomes, result, failure, var: data };
  } finally {
    vm.close();
  }
}

/** JSON data with bigints written as `12n` strings, for readable comparisons. */
export function plain(value: JsonValue | string): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)),
  );
}

/** Sets global `name` to a new full userdata (what the messages list is), raw (tests only). */
export function setUserdataGlobal(vm: LuaVm, name: string): void {
  const state = VmHandle.stateOf(vm);
  state.hostOp(() => {
    const { kernel, L } = state;
    pushGlobals(state, L);
    kernel.pushText(L, name);
    kernel.x.lua_newuserdatauv(L, 8, 0);
    kernel.x.lua_rawset(L, -3);
    kernel.x.lua_settop(L, -2);
  });
}
