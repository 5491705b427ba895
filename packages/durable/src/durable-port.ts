import { decodeValue } from "@runvil/journal";
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
import { ToolFailure } from "@runvil/sdk";
import { DurableError } from "./durable-error";
import { modelText, storeText, toolText } from "./effect-text";
import type { PortActivity } from "./port-activity";
import type { ReplayedPositions } from "./replay-positions";
import { askStepName, effectStepName } from "./step-names";
import { captureOutcome, outcomeError, readOutcome } from "./step-outcome";
import type { WorkflowSteps } from "./workflow-steps";

/** How many of an execution's effects were answered from the record, run live, or asked. */
export interface DurableCounts {
  /** Effects answered from a step recorded by an earlier execution. */
  readonly recorded: number;
  /** Effects run now (their step recorded now). */
  readonly live: number;
  /** Operator asks answered (recorded or now). */
  readonly asks: number;
}

/** The failure of an ask whose wait passed its deadline without an answer. */
export const NO_ANSWER_MESSAGE = "no answer arrived for the operator's ask";

/**
 * The EffectPort of a durable run: every store operation, tool call and model round is a DBOS
 * step named by its effect id (`runvil:{effect}`); an effect recorded by an earlier execution is
 * answered from its step (matched by effect id, its request compared as text) and not run again.
 * A tool call of an ask tool is not run: it waits on a DBOS notification whose topic is its
 * effect id (docs/design/durable.md).
 */
export class DurablePort implements EffectPort {
  private readonly inner: EffectPort;
  private readonly steps: WorkflowSteps;
  private readonly replayed: ReplayedPositions;
  private readonly askTools: ReadonlySet<string>;
  private readonly runId: string;
  private readonly onDivergence: (error: DurableError) => void;
  private readonly activity: PortActivity | undefined;
  private recordedCount = 0;
  private liveCount = 0;
  private askCount = 0;
  /** The first divergence: the run asked for something other than what was recorded. */
  divergence: DurableError | undefined;

  constructor(options: {
    readonly runId: string;
    readonly inner: EffectPort;
    readonly steps: WorkflowSteps;
    readonly replayed: ReplayedPositions;
    readonly askTools: ReadonlySet<string>;
    readonly onDivergence: (error: DurableError) => void;
    /** Told of each effect and ask as it goes (parking). */
    readonly activity?: PortActivity;
  }) {
    this.runId = options.runId;
    this.inner = options.inner;
    this.steps = options.steps;
    this.replayed = options.replayed;
    this.askTools = options.askTools;
    this.onDivergence = options.onDivergence;
    this.activity = options.activity;
    const inner = options.inner;
    if (inner.toolCall === undefined) this.toolCall = undefined;
    if (inner.modelRound === undefined) this.modelRound = undefined;
  }

  counts(): DurableCounts {
    return { recorded: this.recordedCount, live: this.liveCount, asks: this.askCount };
  }

  storeOp<O extends StoreOperation>(request: StoreRequest<O>): Promise<StoreOutput<O["op"]>> {
    return this.effect(request.effect, storeText(request), () =>
      this.inner.storeOp(request),
    ) as Promise<StoreOutput<O["op"]>>;
  }

  toolCall?: (request: ToolCallRequest) => Promise<ToolCallOutput> = (request) => {
    if (this.askTools.has(request.tool)) return this.ask(request);
    const call = this.inner.toolCall;
    if (call === undefined) throw new TypeError("the run has no tool port");
    return this.effect(request.effect, toolText(request), () =>
      call.call(this.inner, request),
    ) as Promise<ToolCallOutput>;
  };

  modelRound?: (request: ModelRoundEffectRequest) => Promise<ModelRoundOutput> = (request) => {
    const round = this.inner.modelRound;
    if (round === undefined) throw new TypeError("the run has no model port");
    return this.effect(request.effect, modelText(request), () =>
      round.call(this.inner, request),
    ) as Promise<ModelRoundOutput>;
  };

  emit(event: RunEvent): void {
    this.inner.emit(event);
  }

  private async effect(
    effect: string,
    request: string,
    perform: () => Promise<unknown>,
  ): Promise<unknown> {
    this.activity?.effectStarted();
    try {
      return await this.answerEffect(effect, request, perform);
    } finally {
      this.activity?.effectSettled();
    }
  }

  private async answerEffect(
    effect: string,
    request: string,
    perform: () => Promise<unknown>,
  ): Promise<unknown> {
    const recorded = this.replayed.effects.get(effect);
    let text: unknown;
    if (recorded !== undefined) {
      this.replayed.effects.delete(effect);
      this.recordedCount += 1;
      text = await recorded;
    } else {
      this.liveCount += 1;
      text = await this.steps.step(effectStepName(effect), () => captureOutcome(request, perform));
    }
    const outcome = readOutcome(text, effectStepName(effect));
    if (outcome.request !== request) throw this.diverged(effect, outcome.request, request);
    const error = outcomeError(outcome);
    if (error !== undefined) throw error;
    return "output" in outcome ? decodeValue(outcome.output) : undefined;
  }

  private async ask(request: ToolCallRequest): Promise<ToolCallOutput> {
    const text = toolText(request);
    this.activity?.effectStarted();
    const replayed = this.replayed.asks.get(request.effect);
    let asked: Promise<unknown>;
    let answer: Promise<unknown>;
    if (replayed !== undefined) {
      this.replayed.asks.delete(request.effect);
      asked = replayed.request;
      answer = replayed.answer;
    } else {
      // The marker and the recv in one synchronous stretch: consecutive positions.
      asked = this.steps.step(askStepName(request.effect), async () => text);
      answer = this.steps.recv(request.effect);
      answer.catch(() => undefined);
    }
    let recordedRequest: unknown;
    try {
      recordedRequest = await asked;
    } finally {
      this.activity?.effectSettled();
    }
    if (recordedRequest !== text) {
      throw this.diverged(request.effect, String(recordedRequest), text);
    }
    // Recorded: the ask waits for its answer (a run waiting on asks alone can be parked).
    this.activity?.askWaiting(request.effect);
    let message: unknown;
    try {
      message = await untilAborted(answer, request.signal);
    } finally {
      this.activity?.askDone(request.effect);
    }
    this.askCount += 1;
    return { text: answerText(message), trusted: true };
  }

  private diverged(effect: string, recorded: string, asked: string): DurableError {
    const error = new DurableError(
      "divergence",
      `run ${this.runId}: effect ${effect} changed since it was recorded (the prompt changed under the run)\n  recorded: ${recorded}\n  now:      ${asked}`,
    );
    if (this.divergence === undefined) {
      this.divergence = error;
      this.onDivergence(error);
    }
    return error;
  }
}

/** The text of an answer message (`{ text }`, as `answer` sends it). */
function answerText(message: unknown): string {
  if (message === null || message === undefined) throw new ToolFailure(NO_ANSWER_MESSAGE);
  if (typeof message === "object" && typeof (message as { text?: unknown }).text === "string") {
    return (message as { text: string }).text;
  }
  throw new ToolFailure("the operator's answer could not be read");
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
