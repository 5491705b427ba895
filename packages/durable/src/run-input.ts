import type { JsonObject } from "@runvil/sdk";
import { DurableError } from "./durable-error";

/** What a durable run is started with: the DBOS workflow's input, stored by DBOS as JSON. */
export interface DurableRunInput {
  /** The run id, which is the DBOS workflow id. */
  readonly runId: string;
  /** The prompt file's path and text, as submitted. */
  readonly prompt: { readonly path: string; readonly text: string };
  /** The argument string. */
  readonly args: string;
  /** The run seed, a whole number from 0 to 2^53 − 1. */
  readonly seed: number;
  /** The run's start instant (ms since the epoch): the Engine's `start`, `sys.when`. */
  readonly startedAt: number;
  /** The Runvil version that submitted the run; a worker of another version refuses it. */
  readonly runvilVersion: string;
  /** Opaque to this package: what the worker's `execute` needs (a config path, store, models). */
  readonly options?: JsonObject;
}

/** Checks a run input field by field; a DurableError `invalid` names the first bad field. */
export function checkRunInput(value: unknown, where: string): DurableRunInput {
  const bad = (field: string, what: string): never => {
    throw new DurableError("invalid", `${where}: ${field} ${what}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return bad("the run input", "must be an object");
  }
  const input = value as Record<string, unknown>;
  const runId = input.runId;
  if (typeof runId !== "string" || runId === "" || /\s/.test(runId)) {
    bad("runId", "must be a non-empty string without whitespace");
  }
  const prompt = input.prompt as Record<string, unknown> | undefined;
  if (typeof prompt !== "object" || prompt === null) bad("prompt", "must be { path, text }");
  else {
    if (typeof prompt.path !== "string") bad("prompt.path", "must be a string");
    if (typeof prompt.text !== "string") bad("prompt.text", "must be a string");
  }
  if (typeof input.args !== "string") bad("args", "must be a string");
  const seed = input.seed;
  if (typeof seed !== "number" || !Number.isSafeInteger(seed) || seed < 0) {
    bad("seed", "must be a whole number from 0 to 2^53 - 1");
  }
  const startedAt = input.startedAt;
  if (typeof startedAt !== "number" || !Number.isFinite(startedAt)) {
    bad("startedAt", "must be a time in milliseconds since the epoch");
  }
  if (typeof input.runvilVersion !== "string" || input.runvilVersion === "") {
    bad("runvilVersion", "must be a non-empty string");
  }
  const options = input.options;
  if (
    options !== undefined &&
    (typeof options !== "object" || options === null || Array.isArray(options))
  ) {
    bad("options", "must be a JSON object when given");
  }
  return value as DurableRunInput;
}
