import type { ModelRoundEffectRequest } from "@runvil/protocol";
import {
  MODEL_FAILURE_KINDS,
  ModelFailure,
  type ModelMessage,
  type ModelProvider,
  type ModelReply,
  type ModelRoundProgress,
  type ModelRoundRequest,
  type ModelSettings,
  type ModelTool,
} from "@runvil/sdk";
import { abortError, raceAbort } from "../tools/abortable";
import { checkReplyShape } from "./reply-shape";

/** What the dispatcher reads of a model round request (protocol's ModelRoundEffectRequest fits). */
export interface ModelDispatchRequest {
  /** The catalog id the round runs on. */
  readonly model: string;
  /** The role's system text, when it has one. */
  readonly system?: string;
  /** The records as sent. */
  readonly messages: readonly ModelMessage[];
  /** The advertised tools. */
  readonly tools: readonly ModelTool[];
  /** The role's generation settings. */
  readonly settings: ModelSettings;
  /** The chain's scope: aborted on a cancel. */
  readonly signal: AbortSignal;
  /** Aborted when the run stops: a model round never survives a stop. */
  readonly stopSignal?: AbortSignal;
  /** Gets the provider's progress reports while the round runs (see ModelRoundRequest). */
  readonly onProgress?: (progress: ModelRoundProgress) => void;
}

/** What a ModelDispatcher is built with. */
export interface ModelDispatcherOptions<R extends ModelDispatchRequest = ModelRoundEffectRequest> {
  /** The provider of every catalog id the run is bound to (the Host's `PreparedRun.modelProviders`). */
  readonly providers: ReadonlyMap<string, ModelProvider>;
  /**
   * Called with every error whose text the model and the prompt must not see: what a provider
   * threw that is not a ModelFailure, a ModelFailure's hidden `cause` (the failure itself is
   * passed), a malformed reply. For logs; a throw from it is ignored.
   */
  readonly onModelError?: (error: unknown, request: R) => void;
}

const KNOWN_KINDS: readonly string[] = MODEL_FAILURE_KINDS;

/** The fields of a failure (from any copy of the sdk) that are strings, numbers or booleans. */
function primitiveFields(fields: unknown): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  if (typeof fields !== "object" || fields === null) return kept;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      kept[key] = value;
    }
  }
  return kept;
}

/**
 * Joined signals by cancel signal, then by stop signal. A chain's cancel signal and the run's
 * stop signal are the same for every round the chain makes, and `AbortSignal.any` costs ~20 µs
 * and garbage for the collector on every call, so each pair is joined once.
 */
const joinedSignals = new WeakMap<AbortSignal, WeakMap<AbortSignal, AbortSignal>>();

/** The signal a round runs under: the request's, joined with its stop signal. */
function roundSignal(request: ModelDispatchRequest): AbortSignal {
  const { signal, stopSignal } = request;
  if (stopSignal === undefined) return signal;
  let byStop = joinedSignals.get(signal);
  if (byStop === undefined) {
    byStop = new WeakMap();
    joinedSignals.set(signal, byStop);
  }
  let joined = byStop.get(stopSignal);
  if (joined === undefined) {
    joined = AbortSignal.any([signal, stopSignal]);
    byStop.set(stopSignal, joined);
  }
  return joined;
}

/** A settled flag the progress relay reads: reports after the round settled are dropped. */
interface RoundState {
  settled: boolean;
}

/**
 * The provider's progress callback: forwards to the request's while the round is open and its
 * signal is not aborted, and never lets a throw from the listener reach the provider.
 */
function progressRelay(
  listener: (progress: ModelRoundProgress) => void,
  signal: AbortSignal,
  state: RoundState,
): (progress: ModelRoundProgress) => void {
  return (progress) => {
    if (state.settled || signal.aborted) return;
    try {
      listener(progress);
    } catch {
      // A failing progress display must not change the round's outcome.
    }
  };
}

/** The request a provider receives: the round's model, system text, records, tools and settings. */
function providerRequest(
  request: ModelDispatchRequest,
  signal: AbortSignal,
  state: RoundState,
): ModelRoundRequest {
  return {
    model: request.model,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: request.messages,
    tools: request.tools,
    settings: request.settings,
    signal,
    ...(request.onProgress === undefined
      ? {}
      : { onProgress: progressRelay(request.onProgress, signal, state) }),
  };
}

/**
 * Runs model rounds for one run: the Harness side of `EffectPort.modelRound`
 * (docs/design/models.md §4). Each round goes to the provider of `request.model` and answers
 * with a checked copy of its reply, or rejects:
 *
 * - the provider fails with a ModelFailure of a known kind: a fresh ModelFailure with the same
 *   kind, message and fields (its cause goes to `onModelError`, never to the run);
 * - the provider throws anything else, or answers a malformed reply: `ModelFailure("internal",
 *   "{provider}: the model round failed")`, the real error to `onModelError`;
 * - no provider serves the model (a Host/Engine mismatch): `ModelFailure("internal",
 *   "{model}: no model provider serves this model in this run")`, reported to `onModelError`.
 *
 * When the request's signal or stop signal aborts, the round rejects at once with the signal's
 * reason (an AbortError when the reason is not an Error); the provider sees the same signal,
 * and nothing it answers afterwards is reported.
 */
export class ModelDispatcher<R extends ModelDispatchRequest = ModelRoundEffectRequest> {
  readonly #providers: ReadonlyMap<string, ModelProvider>;
  readonly #onModelError: ((error: unknown, request: R) => void) | undefined;

  /** A dispatcher over the run's providers. */
  constructor(options: ModelDispatcherOptions<R>) {
    this.#providers = options.providers;
    this.#onModelError = options.onModelError;
  }

  /** Whether a provider serves `model` in this run. */
  has(model: string): boolean {
    return this.#providers.has(model);
  }

  /** Runs one round (see the class comment for every way it can fail). */
  round(request: R): Promise<ModelReply> {
    const signal = roundSignal(request);
    if (signal.aborted) return Promise.reject(abortError(signal, "the model round"));
    const provider = this.#providers.get(request.model);
    if (provider === undefined) {
      const message = `${request.model}: no model provider serves this model in this run`;
      this.#report(new Error(message), request);
      return Promise.reject(new ModelFailure("internal", message));
    }
    return raceAbort(this.#perform(provider, request, signal), signal, () => {}, "the model round");
  }

  async #perform(provider: ModelProvider, request: R, signal: AbortSignal): Promise<ModelReply> {
    const failed = `${provider.name}: the model round failed`;
    let answer: unknown;
    const state: RoundState = { settled: false };
    try {
      answer = await provider.round(providerRequest(request, signal, state));
    } catch (error) {
      state.settled = true;
      if (signal.aborted) throw abortError(signal, "the model round");
      if (ModelFailure.isInstance(error) && KNOWN_KINDS.includes(error.kind)) {
        if (error.cause !== undefined) this.#report(error, request);
        throw new ModelFailure(error.kind, String(error.message), primitiveFields(error.fields));
      }
      this.#report(error, request);
      throw new ModelFailure("internal", failed);
    }
    state.settled = true;
    const checked = checkReplyShape(answer);
    if (!checked.ok) {
      this.#report(
        new TypeError(
          `model provider ${provider.name} answered a malformed reply: ${checked.problem}`,
        ),
        request,
      );
      throw new ModelFailure("internal", failed);
    }
    return checked.reply;
  }

  #report(error: unknown, request: R): void {
    try {
      this.#onModelError?.(error, request);
    } catch {
      // A failing log callback must not change the round's outcome.
    }
  }
}
