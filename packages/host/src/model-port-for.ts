import { ModelDispatcher } from "@runvil/harness";
import type { ModelRoundEffectRequest } from "@runvil/protocol";
import type { PreparedRun } from "./prepare/prepared-run";

/** What a prepared run's model port takes besides the run: an error log. */
export interface RunModelPortOptions {
  /**
   * Gets every error hidden from the run (see ModelDispatcherOptions.onModelError): what a
   * provider threw that is not a ModelFailure, a ModelFailure's cause, a malformed reply.
   */
  readonly onModelError?: (error: unknown, request: ModelRoundEffectRequest) => void;
}

/**
 * The model port of a prepared run: a ModelDispatcher over the providers of the run's bound
 * models (docs/design/models.md §4). Hand it to the run's RunPort (`new RunPort(store, {
 * models })`).
 */
export function modelPortFor(run: PreparedRun, options: RunModelPortOptions = {}): ModelDispatcher {
  return new ModelDispatcher({
    providers: run.modelProviders,
    ...(options.onModelError === undefined ? {} : { onModelError: options.onModelError }),
  });
}
