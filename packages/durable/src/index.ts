export { type DurableClient, openDurableClient, type SubmitRun } from "./durable-client";
export { DurableError, type DurableErrorReason } from "./durable-error";
export type { DurableCounts } from "./durable-port";
export {
  DEFAULT_ASK_TOOLS,
  DEFAULT_PARK_AFTER_MS,
  type DurableShutdownOptions,
  type DurableWorker,
  type DurableWorkerOptions,
  launchDurableWorker,
  type RefusedRun,
} from "./durable-worker";
export { durableInputBroker } from "./input-broker";
export { DURABLE_QUEUE, DURABLE_WORKFLOW, RUNVIL_VERSION } from "./names";
export { newRunId } from "./run-id";
export type { DurableRunInput } from "./run-input";
export type { DurableRunState, DurableRunStatus } from "./run-status";
export { ASK_WAIT_SECONDS, type DurableExecution, type ExecuteRun } from "./run-workflow";
