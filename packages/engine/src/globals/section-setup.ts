import {
  ensureSealedTargets,
  installErrors,
  installGlobalGuard,
  installIteration,
  installJson,
  installLog,
  installSys,
  installUi,
  installVar,
  type LuaJsonObject,
  type LuaVm,
  readBackVar,
} from "../lua";
import type { ChainRunner } from "../walk/chain-runner";
import type { Entry } from "../walk/entry";
import { installEngineLua } from "./install-engine-lua";
import { installCall, installJump } from "./jump-call";
import { installStore } from "./store-global";
import { installUntrusted } from "./untrusted-global";

/**
 * Fills a fresh section VM with the Engine globals in the chapter's fixed order (lua-environment
 * "The Engine globals"): error values, the `_G` guard and deterministic pairs/next first, then
 * 1. args, argv, sys, var · 2. log, store, untrusted, json · 3. ui · 4. item · 5. jump and the
 * prompt reads · 6. the suspending calls · 7. models.loop/compact · 8. preludes · 9. require
 * (with prose and argv served by the guard) · 10. the store's suspending calls (installed with
 * the table at step 2 until preludes exist).
 * Globals of areas that do not exist yet (item, prompt, models, tools, messages, compactors,
 * tasks, packs, preludes) are not installed.
 */
export function setupSectionVm(
  vm: LuaVm,
  entry: Entry,
  startVar: LuaJsonObject,
  runChain: ChainRunner,
): void {
  const { ctx } = entry;
  const { options, prompt } = ctx;
  installErrors(vm);
  installGlobalGuard(vm);
  installIteration(vm);
  // 1
  vm.setGlobal("args", entry.args);
  installSys(vm, {
    sectionName: entry.name,
    sectionCount: prompt.sectionCount,
    execution: options.execution,
    when: options.start,
    id: entry.id,
    taskId: entry.chain.taskId,
  });
  installVar(vm, { initial: startVar });
  entry.readVar = () => readBackVar(vm);
  // 2
  installLog(vm, {
    section: entry.name,
    ...(options.logEvents === undefined ? {} : { quotas: { events: options.logEvents } }),
    onCheckpoint: (checkpoint) => {
      ctx.emit(entry.source, "lua_checkpoint", { message: checkpoint.message });
    },
  });
  installStore(vm, entry);
  installUntrusted(vm, ctx.nonce);
  installJson(vm);
  ensureSealedTargets(vm);
  // 3
  installUi(vm, ctx.uiSnapshot);
  // 5
  installJump(vm, entry);
  // 6
  installCall(vm, entry, runChain);
  // 9
  installEngineLua(vm, entry, ctx.argvJson, !entry.isH1);
  // 10: the store's suspending calls are in place since step 2 (see installStore)
}
