import { installErrors } from "../errors/install-errors";
import { installGlobalGuard } from "../globals/install";
import { installIteration } from "../iteration/install";
import { installJson } from "../json-lua/install";
import { installVar } from "../state/var";
import { loadLuaVmFactory } from "../vm/factory";
import type { LuaVm, LuaVmOptions } from "../vm/lua-vm";
import type { HostFunction, LuaValue } from "../vm/values";
import {
  installPreludes,
  type PreludeChunk,
  type PreludeInstallOptions,
  type PreludeInstallOutcome,
} from "./install";

/** A store for tests: files in a Map, every call recorded, answers after a macrotask. */
export class TestStore {
  readonly files = new Map<string, string>();
  readonly calls: string[] = [];

  /** The `store` global's functions (`read`, `write`), each suspending on a Promise. */
  functions(): Record<string, HostFunction> {
    return {
      read: (call) => {
        const path = call.text(1) ?? "";
        this.calls.push(`read ${path}`);
        return later(() => {
          const text = this.files.get(path);
          if (text === undefined) throw new Error(`${path}: not found`);
          return [text];
        });
      },
      write: (call) => {
        const path = call.text(1) ?? "";
        const text = call.text(2) ?? "";
        this.calls.push(`write ${path}`);
        return later(() => {
          this.files.set(path, text);
          return [];
        });
      },
    };
  }
}

function later(answer: () => LuaValue[]): Promise<LuaValue[]> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      try {
        resolve(answer());
      } catch (error) {
        reject(error);
      }
    }, 0);
  });
}

/** What a test VM holds besides the sandbox. */
export interface PreludeVmOptions extends LuaVmOptions {
  /** Extra globals set before the install (a `tools` stand-in, say). */
  readonly globals?: Readonly<Record<string, LuaValue>>;
  /** var's starting data. */
  readonly varData?: Parameters<typeof installVar>[1];
  readonly install?: PreludeInstallOptions;
}

/**
 * A VM with the globals prelude code sees (error values, the guard, pairs, var, json, a test
 * store, `globals`), the preludes installed; `use` runs with the install's outcome, then the
 * VM closes.
 */
export async function withPreludes<T>(
  preludes: readonly PreludeChunk[],
  use: (vm: LuaVm, outcome: PreludeInstallOutcome, store: TestStore) => Promise<T>,
  options: PreludeVmOptions = {},
): Promise<T> {
  const { globals = {}, varData, install, ...vmOptions } = options;
  const factory = await loadLuaVmFactory();
  const vm = factory.create(vmOptions);
  const store = new TestStore();
  try {
    installErrors(vm);
    installGlobalGuard(vm);
    installIteration(vm);
    installVar(vm, varData);
    vm.setGlobal("store", store.functions());
    installJson(vm);
    vm.setGlobals(globals);
    const outcome = await installPreludes(vm, preludes, install);
    return await use(vm, outcome, store);
  } finally {
    vm.close();
  }
}

/** Runs `source` as a block named `line 1`; its first value, or throws with its failure. */
export async function blockValue(vm: LuaVm, source: string): Promise<LuaValue> {
  const outcome = await vm.runBlock({ source, chunkName: "line 1" });
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}

/** The user-input Pack's prelude, as tools.txt prints it. */
export const USER_INPUT_PRELUDE = `local pack = ...
input = {}
function input.ask(...)
  if select('#', ...) > 0 then
    error("input.ask takes no arguments", 2)
  end
  return tools.call(pack .. "/ask")
end
`;
