import { ToolDispatcher } from "@runvil/harness";
import type { RunStore } from "@runvil/sdk";
import type { PreparedRun } from "./prepare/prepared-run";

/** What a prepared run's dispatcher needs besides the run: its store and an error log. */
export interface RunDispatcherOptions {
  /** The run's store (what the prompt's `store` global sees). */
  readonly store: RunStore;
  /** Gets every error hidden from the model (see ToolDispatcherOptions.onToolError). */
  readonly onToolError?: (toolId: string, error: unknown) => void;
  /** The recorded run's id, lent to every call (see ToolDispatcherOptions.runId). */
  readonly runId?: string | (() => string | undefined);
}

/**
 * The ToolDispatcher of a prepared run: its catalog tools and services, with `store`. Hand it
 * to the run's RunPort (`new RunPort(store, { tools })`).
 */
export function toolDispatcherFor(run: PreparedRun, options: RunDispatcherOptions): ToolDispatcher {
  return new ToolDispatcher({
    tools: run.tools,
    services: run.services,
    store: options.store,
    ...(options.onToolError === undefined ? {} : { onToolError: options.onToolError }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
  });
}
