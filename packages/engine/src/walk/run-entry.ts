import type { ProseSegment } from "@runvil/parser";
import type { EntryVia } from "@runvil/protocol";
import { checkRequiredArgs } from "../argv/derive-argv";
import { readArgvBack } from "../globals/install-engine-lua";
import { setupSectionVm } from "../globals/section-setup";
import type { LuaJsonObject, LuaVm } from "../lua";
import { PreludeInstallFailure } from "../preludes/prelude-install-failure";
import { type ProseTemplate, parseProseTemplate } from "../prose/template";
import { blockFailureEnding, failed } from "../run/block-failure";
import { type ScopeEnd, ScopeEnded } from "../scope/scope";
import type { TaskSet } from "../tasks/task-set";
import type { Chain } from "./chain";
import type { ChainRunner } from "./chain-runner";
import { Entry } from "./entry";
import { scalarReturn } from "./scalar-return";

/** How a section entry ended (it did not fail). */
export type EntryEnd =
  | { readonly ended: "return"; readonly text: string; readonly var: LuaJsonObject }
  | { readonly ended: "jump"; readonly section: number; readonly var: LuaJsonObject }
  | { readonly ended: "fall_through"; readonly var: LuaJsonObject };

const templates = new WeakMap<ProseSegment, ProseTemplate>();

function templateOf(segment: ProseSegment | undefined): ProseTemplate {
  if (segment === undefined) return [];
  let template = templates.get(segment);
  if (template === undefined) {
    template = parseProseTemplate(segment.text);
    templates.set(segment, template);
  }
  return template;
}

/**
 * Runs one section entry (docs/design/walk.md): a fresh VM with the Engine globals, the blocks
 * in order with their pending prose, the end by return, jump or fall-through, the `var`
 * read-back, the teardown. `section` null is the H1 pass. Throws ScopeEnded when the chain's
 * scope ends (this entry failed, or the scope ended elsewhere); the failure is then the scope's
 * ending.
 */
export async function runEntry(
  chain: Chain,
  section: number | null,
  via: EntryVia,
  startVar: LuaJsonObject,
  args: string,
  runChain: ChainRunner,
  ctx: Entry["ctx"],
): Promise<EntryEnd> {
  chain.scope.checkStop(); // nothing new starts once the scope ends (docs/design/stop.md)
  const entry = new Entry(ctx, chain, section, args);
  ctx.emit(entry.source, "section_entered", { via });
  let end: EntryEnd;
  if (entry.blocks.length === 0) {
    entry.scope.checkStop();
    end = { ended: "fall_through", var: startVar };
    if (entry.isH1) checkArgv(entry, ctx.argv);
  } else {
    end = await runBlocks(entry, startVar, runChain);
  }
  ctx.emit(entry.source, "section_completed", { ended: end.ended });
  return end;
}

async function runBlocks(
  entry: Entry,
  startVar: LuaJsonObject,
  runChain: ChainRunner,
): Promise<EntryEnd> {
  const { ctx, scope } = entry;
  scope.checkStop();
  const vm = scope.createVm();
  let ending: ScopeEnd | "stop" | undefined;
  let end: EntryEnd | undefined;
  try {
    await setupSectionVm(vm, entry, startVar, runChain);
    ({ ending, end } = await runEachBlock(entry, vm));
    // An entry that ends with live tasks waits for them first (docs/design/tasks.md, Lifetimes).
    if (ending === undefined) ending = await entry.taskSet.settle();
    if (ending === undefined) {
      const readBack = finishEntry(entry, vm, end);
      if ("kind" in readBack) ending = readBack;
      else end = readBack;
    }
  } catch (error) {
    // A setup that failed after the VM was built (Pack preludes) ends the scope after teardown.
    // Only this scope's ending unwinds it: another scope's is a bug, not a stop.
    if (error instanceof PreludeInstallFailure) ending = error.ending;
    else if (!(error instanceof ScopeEnded) || error.scope !== scope) throw error;
    else ending = "stop";
  } finally {
    ctx.emit(entry.source, "teardown_started", {});
    scope.closeVm(vm);
    ctx.emit(entry.source, "teardown_succeeded", {});
  }
  if (ending !== undefined) {
    if (ending !== "stop") scope.end(ending);
    // Nothing the entry started outlives it: its tasks (cancelled or stopped with the scope)
    // tear down before the failure goes on.
    await (entry.taskSet as TaskSet | undefined)?.drain();
    throw new ScopeEnded(scope);
  }
  return end ?? { ended: "fall_through", var: startVar };
}

/** Runs the blocks until one fails, returns, or jumps. */
async function runEachBlock(
  entry: Entry,
  vm: LuaVm,
): Promise<{ ending?: ScopeEnd | "stop"; end?: EntryEnd }> {
  const { ctx } = entry;
  let pending: ProseSegment | undefined;
  for (const item of entry.items) {
    if (item.kind === "prose") {
      pending = item;
      continue;
    }
    entry.prose = templateOf(pending);
    pending = undefined;
    if (entry.scope.shouldStop()) return { ending: "stop" };
    ctx.emit(entry.source, "chunk_started", { block: item.label });
    const outcome = await vm.runBlock({ bytecode: item.bytecode, chunkName: item.chunkName });
    if (!outcome.ok) {
      ctx.emit(entry.source, "chunk_failed", { block: item.label });
      reportUnfinishedLoads(entry, outcome.reason === "cancelled");
      return { ending: blockFailureEnding(entry, outcome) };
    }
    ctx.emit(entry.source, "chunk_succeeded", { block: item.label });
    const returned = scalarReturn(outcome.values, outcome.floats?.[0] === 0);
    if (returned.kind === "invalid") return { ending: failed(entry, "Lua", returned.message) };
    if (returned.kind === "text") return { end: { ended: "return", text: returned.text, var: {} } };
    const jump = entry.pendingJump;
    if (jump !== undefined) {
      ctx.emit(entry.source, "jump", { target: jump.target });
      return { end: { ended: "jump", section: jump.section, var: {} } };
    }
  }
  return {};
}

/** Libraries still loading when their block failed report a failed load, innermost first. */
function reportUnfinishedLoads(entry: Entry, cancelled: boolean): void {
  if (cancelled) return;
  for (let library = entry.loading.pop(); library !== undefined; library = entry.loading.pop()) {
    entry.ctx.emit(entry.source, "library_load_failed", { library });
  }
}

/**
 * The end of an entry that did not fail: `var` read back (a reassigned `var` fails as Lua),
 * and after the H1 pass, argv read back, checked and frozen.
 */
function finishEntry(entry: Entry, vm: LuaVm, end: EntryEnd | undefined): EntryEnd | ScopeEnd {
  let finalVar: LuaJsonObject;
  try {
    finalVar = entry.readVar();
  } catch (error) {
    return failed(entry, "Lua", error instanceof Error ? error.message : String(error));
  }
  if (entry.isH1) {
    let argv: LuaJsonObject;
    try {
      argv = readArgvBack(vm);
    } catch (error) {
      return failed(
        entry,
        "RequirementsUnmet",
        error instanceof Error ? error.message : String(error),
      );
    }
    const refusal = checkArgv(entry, argv);
    if (refusal !== undefined) return refusal;
  }
  if (end === undefined) return { ended: "fall_through", var: finalVar };
  return { ...end, var: finalVar };
}

/** Checks argv against the declarations and keeps it for the rest of the run (the end of H1). */
function checkArgv(entry: Entry, argv: LuaJsonObject): ScopeEnd | undefined {
  const { ctx } = entry;
  const refusal = checkRequiredArgs(argv, ctx.prompt.frontmatter.args);
  if (refusal !== undefined) {
    const ending = failed(entry, "RequirementsUnmet", refusal);
    if (entry.blocks.length === 0) {
      entry.scope.end(ending);
      throw new ScopeEnded(entry.scope);
    }
    return ending;
  }
  ctx.argv = argv;
  return undefined;
}
