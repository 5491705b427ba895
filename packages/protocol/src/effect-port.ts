import type {
  JsonObject,
  ModelMessage,
  ModelReply,
  ModelRoundProgress,
  ModelSettings,
  ModelTool,
  StoreText,
} from "@runvil/sdk";
import type { RunEvent } from "./run-event";

/**
 * One store operation, in the shapes of the sdk's RunStore (docs/design/architecture.md). Texts
 * are strings, or the raw bytes of a Lua string that is not valid UTF-8 (the store then reports
 * `invalid_utf8`).
 */
export type StoreOperation =
  | { readonly op: "read"; readonly path: StoreText }
  | { readonly op: "write"; readonly path: StoreText; readonly contents: StoreText }
  | { readonly op: "append"; readonly path: StoreText; readonly text: StoreText }
  | {
      readonly op: "edit";
      readonly path: StoreText;
      readonly old: StoreText;
      readonly new: StoreText;
    }
  | { readonly op: "delete"; readonly path: StoreText }
  | { readonly op: "exists"; readonly path: StoreText }
  | { readonly op: "list"; readonly prefix?: StoreText }
  | { readonly op: "glob"; readonly pattern: StoreText };

/** What each store operation resolves with. */
export interface StoreOutputs {
  read: string;
  write: undefined;
  append: undefined;
  edit: undefined;
  delete: undefined;
  exists: boolean;
  list: readonly string[];
  glob: readonly string[];
}

/** The output of a store operation of kind `O`. */
export type StoreOutput<O extends StoreOperation["op"]> = StoreOutputs[O];

/** Where an effect comes from: stable from run to run, so a journal can answer it on replay. */
export interface EffectOrigin {
  /** The run's execution name. */
  readonly execution: string;
  /** The chain id. */
  readonly chain: string;
  /** The entry id (`sys.id`). */
  readonly entry: string;
  /** The section name (the title for the H1 pass). */
  readonly section: string;
  /** The task id (`sys.taskid`). */
  readonly task: string;
}

/** A store effect request. */
export interface StoreRequest<O extends StoreOperation = StoreOperation> {
  /** The operation. */
  readonly operation: O;
  /** Who asks. */
  readonly origin: EffectOrigin;
  /**
   * The effect's id, stable from run to run: `{entry}/{n}`, n counting the entry's effects
   * from 1 in the order its Lua asks for them.
   */
  readonly effect: string;
  /** Aborted when the run is cancelled: the Harness should stop the work. */
  readonly signal: AbortSignal;
}

/** One catalog tool call: the Harness runs the tool and answers with one output or one error. */
export interface ToolCallRequest {
  /** The tool id (`web/fetch`). */
  readonly tool: string;
  /** The name the call used: the wire name, or the id for a tool left out of the offering. */
  readonly name: string;
  /** The arguments, a JSON object (`{}` when the script passed none). */
  readonly arguments: JsonObject;
  /** `script` for tools.call, `model` for a model tool call. */
  readonly caller: "script" | "model";
  /** The model's call id; `''` for a script call. */
  readonly callId: string;
  /** Who asks. */
  readonly origin: EffectOrigin;
  /** The effect's id (see StoreRequest.effect). */
  readonly effect: string;
  /** Aborted when the run is cancelled: the Harness should stop the tool. */
  readonly signal: AbortSignal;
  /**
   * Aborted when the run is stopped, which is not a cancel (docs/design/stop.md): the Harness
   * stops the call at once (rejecting with the signal's reason) unless the tool survives a stop
   * (`ToolDefinition.survivesStop`), whose call stays open until it answers or `signal` aborts.
   * The run waits for every call still pending. The Engine always sets it; absent: the call is
   * never stopped, only cancelled.
   */
  readonly stopSignal?: AbortSignal;
}

/** A catalog tool's answer: its text and its trust level. */
export interface ToolCallOutput {
  /** The output text (JSON text for a structured tool). */
  readonly text: string;
  /** False for untrusted output: the Engine wraps it in the run's envelope. */
  readonly trusted: boolean;
}

/** Which Engine call a model round serves: `models.infer`, a `models.loop` round, a summarising compaction. */
export type ModelRoundVia = "infer" | "loop" | "compact";

/**
 * One model round, as the Engine asks for it (docs/design/loop.md §8). Not the sdk's
 * provider-facing ModelRoundRequest: the Harness's model port finds the provider of `model`
 * and hands it `{ model, system, messages, tools, settings, signal }`.
 */
export interface ModelRoundEffectRequest {
  /** The role label the round runs on. */
  readonly role: string;
  /** The catalog id the role is bound to. */
  readonly model: string;
  /** Which Engine call the round serves. */
  readonly via: ModelRoundVia;
  /** The round number it will have: rounds are numbered per section entry from 1. */
  readonly turn: number;
  /** The role's system text, when it has one. */
  readonly system?: string;
  /** The records as sent, oldest first. */
  readonly messages: readonly ModelMessage[];
  /** The advertised tools (name, description, parameters), in order; empty for none. */
  readonly tools: readonly ModelTool[];
  /** The role's generation settings. */
  readonly settings: ModelSettings;
  /** Who asks. */
  readonly origin: EffectOrigin;
  /** The effect's id (see StoreRequest.effect); a retry after a compaction is a new effect. */
  readonly effect: string;
  /** The chain's scope: aborted on a cancel. */
  readonly signal: AbortSignal;
  /** Aborted when the run stops: a model round never survives a stop. */
  readonly stopSignal: AbortSignal;
  /**
   * The provider's progress (sdk ModelRoundRequest.onProgress): the Engine reports each retry
   * as a `model_turn_retrying` event; a display may wrap it to show the output so far.
   */
  readonly onProgress?: (progress: ModelRoundProgress) => void;
}

/**
 * What a model round resolves with: the sdk's ModelReply (`text`, `toolCalls`, `finishReason`,
 * `usage`). A failure rejects with the sdk's ModelFailure.
 */
export type ModelRoundOutput = ModelReply;

/**
 * An answer the Engine took from timing rather than from an effect (docs/design/determinism.md,
 * Replay): `tasks.join_any`'s choice (the chosen task's id) or the model's `task_status` text.
 * It takes the entry's next effect id, and the run reports it as a `task_observed` event.
 */
export interface ObservationRequest {
  /** Which operation observes. */
  readonly via: "join_any" | "task_status";
  /** The effect id it takes (see StoreRequest.effect). */
  readonly effect: string;
  /** Who asks. */
  readonly origin: EffectOrigin;
}

/**
 * The Engine's only way out: every effect is a request to the port, every step an event.
 * The Harness implements it (`RunPort`); a journal can answer it on replay.
 */
export interface EffectPort {
  /**
   * Performs a store operation. Rejects with the sdk's StoreError for failures the store
   * reports (the Engine raises them as `store` error values); any other rejection is an
   * outside failure (kind lua).
   */
  storeOp<O extends StoreOperation>(request: StoreRequest<O>): Promise<StoreOutput<O["op"]>>;
  /**
   * Performs a catalog tool call. Rejects with the sdk's ToolFailure for the tool's own
   * failure (model-safe message); any other rejection is an outside failure. Absent: the run
   * has no catalog tools.
   */
  toolCall?(request: ToolCallRequest): Promise<ToolCallOutput>;
  /**
   * Performs one model round. Rejects with the sdk's ModelFailure for a failure the prompt
   * should see (`context_exhausted`: Lua sees `reason = "provider"`; `internal` with a
   * model-safe message); any other rejection is an outside failure the Engine reports as
   * `{model}: the model round failed`. Absent: every round fails `internal`, `the run has no
   * model port`.
   */
  modelRound?(request: ModelRoundEffectRequest): Promise<ModelRoundOutput>;
  /**
   * The recorded answer of an observation, when the port replays a recorded run: for `join_any`
   * the id of the task to take (the Engine waits for that one), for `task_status` the answer
   * text. Undefined, or the method absent: the Engine observes live. Called synchronously, before
   * the Engine looks; a `join_any` answer that names none of the listed tasks is ignored.
   */
  recall?(request: ObservationRequest): string | undefined;
  /** Records one run event, synchronously, in emission order. */
  emit(event: RunEvent): void;
}
