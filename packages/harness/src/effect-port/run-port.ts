import type {
  EffectPort,
  ModelRoundEffectRequest,
  ModelRoundOutput,
  RunEvent,
  StoreOperation,
  StoreOutput,
  StoreRequest,
  ToolCallOutput,
  ToolCallRequest,
} from "@runvil/protocol";
import { ModelFailure, type RunStore } from "@runvil/sdk";
import type { EventRecorder } from "../events/event-recorder";
import type { ModelDispatcher } from "../models/model-dispatcher";
import type { ToolDispatcher } from "../tools/tool-dispatcher";
import { applyStoreOperation } from "./apply-store-operation";

/** Options of a RunPort. */
export interface RunPortOptions {
  /** Called with every event, synchronously, in emission order (progress displays, logs). */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * Also records every event (e.g. to a JsonLinesEventSink). When the recorder refuses an
   * event, recording stops and the failure is kept in {@link RunPort.recordingError}; the run
   * goes on.
   */
  readonly recorder?: EventRecorder<RunEvent>;
  /**
   * Let the event loop turn (setImmediate) before each store operation, so timers and signal
   * handlers (a Ctrl-C) run even when the store answers from memory. Default false.
   */
  readonly yieldToEventLoop?: boolean;
  /**
   * Runs the run's catalog tool calls (tool dispatch). Absent: every `toolCall` rejects, as a
   * run without catalog tools never makes one.
   */
  readonly tools?: ToolDispatcher;
  /**
   * Runs the run's model rounds (the providers of its bound models). Absent: every
   * `modelRound` rejects with `ModelFailure("internal", "the run has no model port")`.
   */
  readonly models?: ModelDispatcher;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The Harness's EffectPort for one run: store operations go to a RunStore (memory or
 * directory), catalog tool calls to a ToolDispatcher, model rounds to a ModelDispatcher, events
 * go to a callback and, optionally, an EventRecorder.
 */
export class RunPort implements EffectPort {
  /** The run store every store operation is performed on. */
  readonly store: RunStore;
  readonly #onEvent: ((event: RunEvent) => void) | undefined;
  readonly #recorder: EventRecorder<RunEvent> | undefined;
  readonly #yield: boolean;
  readonly #tools: ToolDispatcher | undefined;
  readonly #models: ModelDispatcher | undefined;
  #recordingError: unknown;
  #eventCount = 0;
  #storeOpCount = 0;
  #toolCallCount = 0;
  #modelRoundCount = 0;

  /** A port over `store`. */
  constructor(store: RunStore, options: RunPortOptions = {}) {
    this.store = store;
    this.#onEvent = options.onEvent;
    this.#recorder = options.recorder;
    this.#yield = options.yieldToEventLoop ?? false;
    this.#tools = options.tools;
    this.#models = options.models;
  }

  /** How many events were emitted so far. */
  get eventCount(): number {
    return this.#eventCount;
  }

  /** How many store operations were asked for so far. */
  get storeOpCount(): number {
    return this.#storeOpCount;
  }

  /** How many catalog tool calls were asked for so far (failed and cancelled ones included). */
  get toolCallCount(): number {
    return this.#toolCallCount;
  }

  /** How many model rounds were asked for so far (failed and cancelled ones included). */
  get modelRoundCount(): number {
    return this.#modelRoundCount;
  }

  /** The recorder's first failure, or undefined while recording works (or without recorder). */
  get recordingError(): unknown {
    return this.#recordingError;
  }

  /** Performs the store operation on the store; the store's failures (StoreError) pass through. */
  async storeOp<O extends StoreOperation>(request: StoreRequest<O>): Promise<StoreOutput<O["op"]>> {
    this.#storeOpCount += 1;
    if (this.#yield) await nextTurn();
    return applyStoreOperation(this.store, request.operation);
  }

  /**
   * Runs the catalog tool call on the ToolDispatcher: its ToolFailures (model-safe) pass
   * through. Without a dispatcher it rejects with a plain Error.
   */
  async toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.#toolCallCount += 1;
    if (this.#tools === undefined) {
      throw new Error(
        `cannot call ${request.tool}: this RunPort was created without a tool dispatcher`,
      );
    }
    if (this.#yield) await nextTurn();
    return this.#tools.call(request);
  }

  /**
   * Runs the model round on the ModelDispatcher: its ModelFailures (model-safe) pass through.
   * Without a dispatcher it rejects with `ModelFailure("internal", "the run has no model port")`.
   */
  async modelRound(request: ModelRoundEffectRequest): Promise<ModelRoundOutput> {
    this.#modelRoundCount += 1;
    if (this.#models === undefined) throw new ModelFailure("internal", "the run has no model port");
    if (this.#yield) await nextTurn();
    return this.#models.round(request);
  }

  /** Forwards the event to the callback, then to the recorder. */
  emit(event: RunEvent): void {
    this.#eventCount += 1;
    this.#onEvent?.(event);
    if (this.#recorder === undefined || this.#recordingError !== undefined) return;
    try {
      this.#recorder.record(event);
    } catch (error) {
      this.#recordingError = error;
    }
  }
}
