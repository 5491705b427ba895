import type { Prompt } from "@runvil/parser";
import type { RunResult } from "@runvil/protocol";
import { deriveArgv } from "../argv/derive-argv";
import { runBudgetOf } from "../budget/budget-check";
import { toPlainJsonObject } from "../json/convert";
import { type LuaRuntime, type LuaVmFactory, loadLuaRuntime, loadLuaVmFactory } from "../lua";
import { reportBoundRoles } from "../models/model-events";
import { usageOf } from "../models/usage";
import { Scope, ScopeEnded } from "../scope/scope";
import { taskBuiltins } from "../tasks/task-builtins";
import { reportDroppedTools } from "../tools/tool-events";
import { Chain } from "../walk/chain";
import { runEntry } from "../walk/run-entry";
import { chainRunner } from "../walk/walk-chain";
import { RunContext } from "./run-context";
import { type RunOptions, resolveRunOptions } from "./run-options";

/** Runs parsed prompts. Load one per process with {@link loadEngine}; it holds no run state. */
export interface Engine {
  /**
   * Runs `prompt` to its end: the H1 pass, then the section walk (docs/design/walk.md). Every
   * effect goes through `options.effects`, every step is reported there as an event. Resolves
   * with the run result; rejects only for invalid options or a broken Lua runtime, never for
   * something the prompt does.
   */
  run(prompt: Prompt, options: RunOptions): Promise<RunResult>;
}

/** Loads the Lua runtime and VM factory (once per process) and returns an Engine. */
export async function loadEngine(): Promise<Engine> {
  const [runtime, factory] = await Promise.all([loadLuaRuntime(), loadLuaVmFactory()]);
  return { run: (prompt, options) => runPrompt(prompt, options, factory, runtime) };
}

async function runPrompt(
  prompt: Prompt,
  options: RunOptions,
  factory: LuaVmFactory,
  runtime: LuaRuntime,
): Promise<RunResult> {
  const ctx = new RunContext(prompt, resolveRunOptions(options), runtime);
  runBudgetOf(ctx); // a Host budget no run can start with throws a RangeError here
  ctx.taskBuiltins = taskBuiltins; // the model's task built-ins (docs/design/task-builtins.md)
  // The run's lifetime is its root scope: the run's sources act on it, and its ending is the
  // run's (docs/design/scopes.md).
  const scope = Scope.root(factory, ctx.options);
  const run = { chain: "0", entry: null, section: prompt.title.title };
  ctx.emit(run, "run_started", {});
  reportDroppedTools(ctx); // tools: each catalog tool the Host dropped at prepare
  reportBoundRoles(ctx); // models: each role prepare bound
  let result: string | null = null;
  try {
    const runChain = chainRunner(ctx);
    const root = Chain.root(scope);
    ctx.argv = deriveArgv(ctx.options.args, prompt.frontmatter.args);
    const h1 = await runEntry(root, null, "h1", {}, ctx.options.args, runChain, ctx);
    ctx.rootVar = h1.var;
    if (h1.ended === "return") {
      result = h1.text;
    } else {
      const first = h1.ended === "jump" ? h1.section : ctx.tree.firstSection;
      if (first !== null) {
        const walked = await runChain(
          root,
          first,
          h1.ended === "jump" ? "jump" : "walk",
          h1.var,
          ctx.options.args,
        );
        result = walked.result;
      }
    }
  } catch (error) {
    if (!(error instanceof ScopeEnded) || error.scope !== scope) throw error;
  } finally {
    scope.close();
  }
  const ending = scope.ending;
  const usage = usageOf(ctx).usage();
  if (ending === undefined) {
    ctx.emit(run, "run_finished", { outcome: "succeeded" });
    return {
      outcome: "succeeded",
      result,
      var: toPlainJsonObject(ctx.rootVar),
      events: ctx.eventCount,
      usage,
    };
  }
  if (ending.kind === "cancelled") {
    ctx.emit(run, "run_finished", { outcome: "cancelled" });
    return {
      outcome: "cancelled",
      var: toPlainJsonObject(ctx.rootVar),
      events: ctx.eventCount,
      usage,
    };
  }
  if (ending.kind === "stopped") {
    ctx.emit(run, "run_finished", { outcome: "cancelled", stopped: true });
    return {
      outcome: "cancelled",
      stopped: true,
      var: toPlainJsonObject(ctx.rootVar),
      events: ctx.eventCount,
      usage,
    };
  }
  ctx.emit(run, "run_finished", { outcome: "failed", error_kind: ending.error.kind });
  return {
    outcome: "failed",
    error: ending.error,
    var: toPlainJsonObject(ctx.rootVar),
    events: ctx.eventCount,
    usage,
  };
}
