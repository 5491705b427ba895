import type { JsonObject } from "@runvil/sdk";

/**
 * What `runvil submit` puts in a durable run's `options` for the worker (opaque to
 * `@runvil/durable`): the Host configuration file, the `--model` bindings and the seed files of
 * its store. Every path is absolute, so a worker on another machine with the same checkout finds
 * the same files.
 */
export interface SubmitOptions {
  /** The Host configuration file; absent: the nearest runvil.config.json from the prompt. */
  readonly config?: string;
  /** `--model role=id` bindings. */
  readonly models?: Readonly<Record<string, string>>;
}

/** The options as JSON for the run input. */
export function submitOptionsJson(options: SubmitOptions): JsonObject {
  return {
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.models === undefined ? {} : { models: { ...options.models } }),
  };
}

/** The options a run input carries; a DurableOptionsError names a field that is not right. */
export function readSubmitOptions(runId: string, value: JsonObject | undefined): SubmitOptions {
  if (value === undefined) return {};
  const bad = (field: string, what: string): never => {
    throw new Error(`run ${runId}: options.${field} ${what}`);
  };
  const config = value.config;
  if (config !== undefined && typeof config !== "string") bad("config", "must be a file path");
  const models = value.models;
  if (models !== undefined) {
    if (typeof models !== "object" || models === null || Array.isArray(models)) {
      bad("models", "must be an object of role -> model id");
    }
    for (const [role, model] of Object.entries(models as Record<string, unknown>)) {
      if (typeof model !== "string") bad(`models.${role}`, "must be a model id");
    }
  }
  return {
    ...(typeof config === "string" ? { config } : {}),
    ...(models === undefined ? {} : { models: models as Record<string, string> }),
  };
}
