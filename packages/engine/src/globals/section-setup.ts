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
import { installPackPreludes } from "../preludes/install-pack-preludes";
import { installItem } from "../tasks/install-tasks";
import { TaskSet } from "../tasks/task-set";
import type { ChainRunner } from "../walk/chain-runner";
import type { Entry } from "../walk/entry";
import { installEngineLua } from "./install-engine-lua";
import { installCall, installJump } from "./jump-call";
import { installLazyGlobals } from "./lazy-globals";
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
 * calls; preludes at step 8 read the same `tools`), in the same chunk as the lazy globals.
 * Step 4 installs `item` in a task chain's entries only.
 * The globals most sections never touch come from one chunk after `tools`
 * (docs/design/lazy-globals.md): `prompt` (step 5), `models` (models.infer and the handles' infer
 * are suspending calls), `messages` (the list its loop rounds read) and `tasks` (step 6), and
 * `compactors` with `models.loop` and `models.compact` (step 7; `tasks.fanout` too, fanout.md; docs/design/loop.md,
 * compactors.md). Nothing runs between steps 5 and 8, so installing them together is not seen.
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
  // 5: jump (the prompt reads come with the lazy globals, after step 6's tools)
  installJump(vm, entry);
  // 6
  installCall(vm, entry, runChain);
  entry.taskSet = new TaskSet(entry, runChain);
  // 6: tools and packs, then (5–7) prompt, models, messages, tasks, and models.loop, handle:loop,
  // models.compact and compactors, each loading on its first use, in one chunk
  installLazyGlobals(vm, entry);
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
