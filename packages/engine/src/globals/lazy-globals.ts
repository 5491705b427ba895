import { COMPACTORS_METATABLE_TEXT } from "../compact/compact-texts";
import { compactorsHost } from "../compact/install-compactors";
import { fanoutHost } from "../fanout/install-fanout";
import { loopHost } from "../loop/install-loop";
import { ensureUserdataFactory, type HostFunction, type LuaRuntime, type LuaVm } from "../lua";
import { messagesHost } from "../messages/install-messages";
import { modelsHost } from "../models/install-models";
import { MODELS_METATABLE_TEXT } from "../models/models-texts";
import { tasksHost } from "../tasks/install-tasks";
import { toolsCore } from "../tools/install-tools";
import { namespaceMetatableText } from "../tools/tool-messages";
import type { Entry } from "../walk/entry";
import LAZY_AREAS_LUA from "./lazy-areas.lua";
import LAZY_GLOBALS_LUA from "./lazy-globals.lua";
import { promptHost } from "./prompt-reads";

/** The chunk name lazy-globals.lua runs under: frames read `runvil/lazy-globals.lua:{line}:`. */
export const LAZY_GLOBALS_CHUNK_NAME = "@runvil/lazy-globals.lua";

/** The chunk name of the areas behind them (lazy-areas.lua). */
export const LAZY_AREAS_CHUNK_NAME = "@runvil/lazy-areas.lua";

/** The install chunk and the areas, compiled once per runtime. */
interface LazyGlobalsBytecode {
  readonly install: Uint8Array;
  readonly areas: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, LazyGlobalsBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the lazy globals' Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

function lazyGlobalsBytecode(runtime: LuaRuntime): LazyGlobalsBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      install: compile(runtime, LAZY_GLOBALS_LUA, LAZY_GLOBALS_CHUNK_NAME),
      areas: compile(runtime, LAZY_AREAS_LUA, LAZY_AREAS_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}

/**
 * `A(what)`: `A('code')` gives lazy-areas.lua's bytecode; `A(area)` the host function of one area
 * for `entry`, made when the area is first used (the loop's comes with the compactors').
 */
function areaHosts(entry: Entry): HostFunction {
  return (call) => {
    const area = call.text(1);
    switch (area) {
      case "code":
        return [lazyGlobalsBytecode(entry.ctx.runtime).areas];
      case "prompt":
        return [promptHost(entry)];
      case "models":
        return [modelsHost(entry)];
      case "messages":
        return [messagesHost(entry)];
      case "tasks":
        return [tasksHost(entry)];
      case "fanout":
        return [fanoutHost(entry)];
      case "loop":
        return [loopHost(entry), compactorsHost(entry)];
      default:
        throw new Error(`unknown lazy global area ${String(area)}`);
    }
  };
}

/**
 * Setup step 6's `tools` and `packs` (the tools core, as installTools runs it), then the globals
 * most sections never touch (docs/design/lazy-globals.md): `prompt` (step 5), `models` (with
 * `models.loop` and `models.compact`), `messages`, `tasks` and `compactors`, all in one small
 * chunk. The areas behind them (lazy-areas.lua), each area's host function, kit and
 * implementation wait for the first use.
 */
export function installLazyGlobals(vm: LuaVm, entry: Entry): void {
  ensureUserdataFactory(vm);
  const outcome = vm.runPrivileged({
    bytecode: lazyGlobalsBytecode(entry.ctx.runtime).install,
    chunkName: LAZY_GLOBALS_CHUNK_NAME,
    args: [
      areaHosts(entry),
      namespaceMetatableText("prompt"),
      MODELS_METATABLE_TEXT,
      COMPACTORS_METATABLE_TEXT,
      ...toolsCore(entry),
    ],
  });
  if (!outcome.ok) throw new Error(`the lazy globals' Lua setup failed: ${outcome.message}`);
}
