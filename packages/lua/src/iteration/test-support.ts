import type { LuaVm, LuaVmOptions } from "../vm/lua-vm";
import type { BlockOutcome } from "../vm/outcome";
import { run, withVm } from "../vm/test-support";
import { installIteration } from "./install";

/** Creates a VM with deterministic iteration installed, closes it after `use` (tests only). */
export function withIterationVm<T>(
  use: (vm: LuaVm) => Promise<T> | T,
  options?: LuaVmOptions,
): Promise<T> {
  return withVm((vm) => {
    installIteration(vm);
    return use(vm);
  }, options);
}

/** Runs `source` as a block in a fresh VM with iteration installed (tests only). */
export function runIteration(source: string, options?: LuaVmOptions): Promise<BlockOutcome> {
  return withIterationVm((vm) => run(vm, source), options);
}

/** The first result of a block that must succeed in a fresh iteration VM (tests only). */
export async function resultOf(source: string, options?: LuaVmOptions): Promise<unknown> {
  const outcome = await runIteration(source, options);
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}

/** Lua: `walk(t)` joins tostring of each key pairs visits with ', ' (prefix for test blocks). */
export const WALK_LUA = `
local function walk(t)
  local seen = {}
  for k in pairs(t) do seen[#seen + 1] = tostring(k) end
  return table.concat(seen, ', ')
end
local function nextwalk(t)
  local seen = {}
  for k in next, t do seen[#seen + 1] = tostring(k) end
  return table.concat(seen, ', ')
end
`;
