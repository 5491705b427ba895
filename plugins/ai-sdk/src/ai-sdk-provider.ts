import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  MODEL_SPECIFICATION_VERSION,
  ModelFailure,
  type ModelInfo,
  type ModelProvider,
  type ModelReply,
  type ModelRoundRequest,
} from "@runvil/sdk";
import { classifyError, type ErrorClass } from "./classify-error";
import { replyOfGenerate, replyOfStream } from "./collect-reply";
import { checkLanguageModel } from "./language-model";
import { redact, redactedError } from "./redact";
import {
  type RetryOptions,
  type RetryPolicy,
  retryDelay,
  retryPolicy,
  sleep,
} from "./retry-policy";
import { StreamBroken } from "./round-errors";
import { toCallOptions } from "./v3-prompt";

/** One catalog model a provider serves: its facts, and the id its API knows it by. */
export interface AiSdkCatalogModel extends ModelInfo {
  /** The model id sent to the API (`gpt-5-mini`); the catalog id is usually `{provider}:{apiId}`. */
  readonly apiId: string;
}

/** What {@link createAiSdkProvider} takes. */
export interface AiSdkProviderOptions {
  /** The provider's name, for the catalog and every message: `openai`. */
  readonly name: string;
  /** The catalog models it serves. */
  readonly models: readonly AiSdkCatalogModel[];
  /**
   * The AI SDK language model of an API model id (such as `openai.chat` or
   * `anthropic.languageModel`): called once per model, on its first round.
   */
  readonly languageModel: (apiId: string) => unknown;
  /** Stream replies with `doStream` (progress while the reply arrives); default true. */
  readonly stream?: boolean;
  /** How rate limits, overloads, server errors and network failures are retried. */
  readonly retry?: RetryOptions;
  /** How long one attempt may wait for the response (stream: for its start), in ms; default 120,000. */
  readonly requestTimeoutMs?: number;
  /** How long a stream may stay silent between parts, in ms; default 60,000. */
  readonly idleTimeoutMs?: number;
  /**
   * What a user sets to fix the key, for authentication messages: `the environment variable
   * OPENAI_API_KEY`. Absent: `the API key of provider {name}`.
   */
  readonly keySetting?: string;
  /** Texts that must never appear in a message or a log (the API key). */
  readonly secrets?: readonly string[];
}

const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

function positiveWhole(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`${name} must be a whole number of at least 1, got ${String(value)}`);
  }
  return value;
}

/**
 * A Runvil model provider over AI SDK language models (specification V3): each round becomes
 * one `doStream` (or `doGenerate`) call with the records as a V3 prompt and the tools as
 * function tools, retried on transient failures, and its result becomes Runvil's reply. See
 * docs/design/providers.md for the mapping of every error.
 */
export function createAiSdkProvider(options: AiSdkProviderOptions): ModelProvider {
  return new AiSdkProvider(options);
}

class AiSdkProvider implements ModelProvider {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly name: string;
  readonly models: readonly ModelInfo[];
  readonly #byId = new Map<string, AiSdkCatalogModel>();
  readonly #languageModels = new Map<string, LanguageModelV3>();
  readonly #factory: (apiId: string) => unknown;
  readonly #stream: boolean;
  readonly #retry: RetryPolicy;
  readonly #requestTimeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #keySetting: string;
  readonly #secrets: readonly string[];

  constructor(options: AiSdkProviderOptions) {
    this.name = options.name;
    this.models = options.models.map(({ apiId: _, ...info }) => info);
    for (const model of options.models) this.#byId.set(model.id, model);
    this.#factory = options.languageModel;
    this.#stream = options.stream ?? true;
    this.#retry = retryPolicy(options.retry);
    this.#requestTimeoutMs = positiveWhole(
      options.requestTimeoutMs,
      "requestTimeoutMs",
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    this.#idleTimeoutMs = positiveWhole(
      options.idleTimeoutMs,
      "idleTimeoutMs",
      DEFAULT_IDLE_TIMEOUT_MS,
    );
    this.#keySetting = options.keySetting ?? `the API key of provider ${options.name}`;
    this.#secrets = (options.secrets ?? []).filter((secret) => secret !== "");
  }

  async round(request: ModelRoundRequest): Promise<ModelReply> {
    const entry = this.#byId.get(request.model);
    if (entry === undefined) {
      throw new ModelFailure(
        "internal",
        `${this.name}: this provider serves no model ${request.model}`,
      );
    }
    const model = this.#languageModel(entry);
    const started = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      let error: unknown;
      let timedOut: string | undefined;
      const control = new AbortController();
      const onAbort = (): void => control.abort(request.signal.reason);
      request.signal.addEventListener("abort", onAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
        timedOut = `no response within ${this.#requestTimeoutMs / 1000} s`;
        control.abort(new StreamBroken(timedOut));
      }, this.#requestTimeoutMs);
      const responded = (): void => {
        clearTimeout(timer);
        timer = undefined;
      };
      try {
        return await this.#attempt(model, request, control.signal, attempt, responded);
      } catch (thrown) {
        error = thrown;
      } finally {
        clearTimeout(timer);
        request.signal.removeEventListener("abort", onAbort);
      }
      if (request.signal.aborted) throw request.signal.reason ?? error;
      const kind: ErrorClass =
        timedOut === undefined ? classifyError(error) : { kind: "retry", reason: timedOut };
      if (kind.kind !== "retry") throw this.#failure(kind, entry, error);
      const delay = retryDelay(this.#retry, attempt, kind.retryAfterMs);
      const elapsed = Date.now() - started;
      if (attempt > this.#retry.maxRetries || elapsed + delay > this.#retry.maxRetryTimeMs) {
        throw this.#gaveUp(kind, entry, attempt, delay);
      }
      request.onProgress?.({ type: "retry", attempt, delayMs: delay, reason: kind.reason });
      await sleep(delay, request.signal);
    }
  }

  async #attempt(
    model: LanguageModelV3,
    request: ModelRoundRequest,
    signal: AbortSignal,
    attempt: number,
    responded: () => void,
  ): Promise<ModelReply> {
    const options = toCallOptions(request, signal);
    if (!this.#stream) {
      const result = await model.doGenerate(options);
      responded();
      return replyOfGenerate(result);
    }
    const { stream } = await model.doStream(options);
    responded();
    const onProgress = request.onProgress;
    return replyOfStream(stream, {
      idleTimeoutMs: this.#idleTimeoutMs,
      signal,
      ...(onProgress === undefined
        ? {}
        : { onOutput: (outputTokens) => onProgress({ type: "output", outputTokens, attempt }) }),
    });
  }

  #languageModel(entry: AiSdkCatalogModel): LanguageModelV3 {
    const known = this.#languageModels.get(entry.apiId);
    if (known !== undefined) return known;
    let made: unknown;
    try {
      made = this.#factory(entry.apiId);
    } catch (error) {
      if (classifyError(error).kind === "missing-key") {
        throw this.#failure({ kind: "missing-key" }, entry, error);
      }
      throw this.#fail(
        "internal",
        `${this.name}: cannot make model ${entry.apiId}: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
    const checked = checkLanguageModel(made);
    if (!checked.ok) {
      throw this.#fail("internal", `${this.name}: model ${entry.apiId}: ${checked.problem}`);
    }
    this.#languageModels.set(entry.apiId, checked.adapted.model);
    return checked.adapted.model;
  }

  #fail(kind: "internal" | "context_exhausted", message: string, cause?: unknown): ModelFailure {
    return new ModelFailure(
      kind,
      redact(message, this.#secrets),
      {},
      cause === undefined ? undefined : { cause: redactedError(cause, this.#secrets) },
    );
  }

  #failure(
    kind: Exclude<ErrorClass, { kind: "retry" }>,
    entry: AiSdkCatalogModel,
    error: unknown,
  ): ModelFailure {
    const name = this.name;
    switch (kind.kind) {
      case "context":
        return this.#fail(
          "context_exhausted",
          `${name}: the request does not fit ${entry.id}: ${kind.detail}`,
        );
      case "auth":
        return this.#fail(
          "internal",
          kind.status === 401
            ? `${name}: the server refused the API key (401 Unauthorized); set ${this.#keySetting} to a valid key`
            : `${name}: the API key may not use ${entry.apiId} (403 Forbidden); check the key's permissions, or set ${this.#keySetting} to another key`,
        );
      case "missing-key":
        return this.#fail("internal", `${name}: no API key; set ${this.#keySetting}`);
      case "unknown-model":
        return this.#fail(
          "internal",
          `${name}: the server does not know the model ${JSON.stringify(entry.apiId)} (${kind.status}); check the model ids of provider ${name} in runvil.config.json`,
        );
      case "bad-reply":
        return this.#fail(
          "internal",
          `${name}: the reply of ${entry.id} is not valid (malformed JSON or an unexpected shape)`,
          error,
        );
      case "refused":
        return this.#fail("internal", `${name}: ${entry.id}: ${kind.detail}`);
      case "other":
        return this.#fail("internal", `${name}: the model round on ${entry.id} failed`, error);
    }
  }

  #gaveUp(
    kind: Extract<ErrorClass, { kind: "retry" }>,
    entry: AiSdkCatalogModel,
    attempt: number,
    delay: number,
  ): ModelFailure {
    const tries = attempt === 1 ? "1 attempt" : `${attempt} attempts`;
    const why =
      attempt > this.#retry.maxRetries
        ? `gave up after ${tries}`
        : `gave up after ${tries}: the next wait (${(delay / 1000).toFixed(1)} s) would pass the ${this.#retry.maxRetryTimeMs / 1000} s retry budget`;
    return this.#fail("internal", `${this.name}: ${kind.reason} on ${entry.id}; ${why}`);
  }
}
