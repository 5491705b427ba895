import { installFanout } from "../fanout/install-fanout";
import { installLoop } from "../loop/install-loop";
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
import { installMessages } from "../messages/install-messages";
import { installModels } from "../models/install-models";
import { installPackPreludes } from "../preludes/install-pack-preludes";
import { installItem, installTasks } from "../tasks/install-tasks";
import { TaskSet } from "../tasks/task-set";
import { installTools } from "../tools/install-tools";
import type { ChainRunner } from "../walk/chain-runner";
import type { Entry } from "../walk/entry";
import { installEngineLua } from "./install-engine-lua";
import { installCall, installJump } from "./jump-call";
import { installPromptReads } from "./prompt-reads";
import { installStore } from "./store-global";
import { installUntrusted } from "./untrusted-global";

/**
 * Fills a fresh section VM with the Engine globals in the chapter's fixed order (lua-environment
 * "The Engine globals"): error values, the `_G` guard and deterministic pairs/next first, then
 * 1. args, argv, sys, var · 2. log, store, untrusted, json · 3. ui · 4. item · 5. jump and the
 * prompt reads · 6. the suspending calls · 7. models.loop/compact · 8. Pack preludes · 9. require
 * (with prose and argv served by the guard) · 10. the store's suspending calls.
 * The store table comes at step 2 with its suspending functions; while preludes load (step 8)
 * they are swapped for direct ones and put back when the install ends, which is step 10 (nothing
 * runs in between: docs/design/preludes.md).
 * Step 6 also installs the `tools` and `packs` tables (tools.call is one of the suspending
 * calls; preludes at step 8 read the same `tools`), and `models` (models.infer and the handles'
 * infer are suspending calls) with `messages`, the list its loop rounds read
 * (docs/design/messages.md).
 * Step 4 installs `item` in a task chain's entries only, and step 6 the `tasks` table.
 * Step 7 plugs the loop and compaction into `models` and installs `compactors`
 * (docs/design/loop.md, compactors.md).
 * Async because a prelude's install-time store calls wait for their effects; throws a
 * PreludeInstallFailure when the preludes do not install.
 */
export async function setupSectionVm(
  vm: LuaVm,
  entry: Entry,
  startVar: LuaJsonObject,
  runChain: ChainRunner,
): Promise<void> {
  const { ctx } = entry;
  const { options, prompt } = ctx;
  installErrors(vm);
  installGlobalGuard(vm);
  installIteration(vm);
  // 1
  vm.setGlobal("args", entry.args);
  entry.sys = installSys(vm, {
    sectionName: entry.name,
    sectionCount: prompt.sectionCount,
    execution: options.execution,
    when: options.start,
    id: entry.id,
    taskId: entry.chain.taskId,
    ...indexFact(entry),
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
  // 4
  installItem(vm, entry);
  // 5
  installJump(vm, entry);
  installPromptReads(vm, entry);
  // 6
  installCall(vm, entry, runChain);
  installTools(vm, entry);
  installModels(vm, entry);
  installMessages(vm, entry);
  entry.taskSet = new TaskSet(entry, runChain);
  installTasks(vm, entry);
  installFanout(vm, entry);
  // 7: models.loop, handle:loop, models.compact and compactors
  installLoop(vm, entry);
  // 8: the Pack preludes (their store calls run directly while they load)
  await installPackPreludes(vm, entry);
  // 9
  installEngineLua(vm, entry, entry.chain.argvJson ?? ctx.argvJson, !entry.isH1);
  // 10: the store's suspending calls, back in place since the end of step 8 (see installStore)
}

/** `sys.index`: in a task chain's first entry, when its spawn gave one. */
function indexFact(entry: Entry): { index?: number } {
  const index = entry.chain.indexOf(entry.id);
  return index === undefined ? {} : { index };
}
