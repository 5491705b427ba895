import { performance } from "node:perf_hooks";
import {
  type EffectOrigin,
  type EffectPort,
  formatEventLine,
  type RunEvent,
  type RunResult,
} from "@runvil/protocol";
import { encodeOutput, encodeValue } from "./codec";
import { modelRequestText, storeRequestText, toolRequestText } from "./effect-requests";
import { recordFailure } from "./failure";
import type { RunRecorder } from "./journal";
import type { EffectKind, EffectRecord, RecordedFailure, RunCounts, RunEnding } from "./records";

/** A port that records every effect and event of one run into a journal. */
export interface JournalPort {
  /** The EffectPort to run the Engine on: the inner port's, each effect and event recorded. */
  readonly effects: EffectPort;
  /** The recorded run's id. */
  readonly runId: string;
  /**
   * The first failure to record (a full disk, a lock held too long): recording stopped there,
   * the run went on. Undefined while recording works.
   */
  readonly recordingError: unknown;
  /** The counts so far. */
  counts(): RunCounts;
  /** Records how the run ended (its result), then the journal holds the whole run. */
  finish(result: RunResult, endedAt?: number): Promise<void>;
}

/**
 * Wraps `inner` so that every effect request and its result or failure (keyed by its effect id,
 * numbered in issue and arrival order) and every event is recorded by `recorder`. A tool call
 * or a model round is durable before its result reaches the Engine; store operations are written
 * in group commits (docs/design/journal.md). Recording
 * failures never fail the run: recording stops and {@link JournalPort.recordingError} says why.
 */
export function createJournalPort(inner: EffectPort, recorder: RunRecorder): JournalPort {
  const origin = performance.now();
  let issued = 0;
  let arrived = 0;
  let events = 0;
  let modelRounds = 0;
  let toolCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let recordingError: unknown;

  const settle = (record: EffectRecord): Promise<void> | undefined => {
    if (recordingError !== undefined) return undefined;
    try {
      // Tool calls and model rounds are durable before their result reaches the Engine; store
      // operations go in group commits (docs/design/journal.md "Writes and crashes").
      const durable = record.kind !== "store";
      const pending = recorder.recordEffect(record, durable)?.catch((error: unknown) => {
        recordingError ??= error;
      });
      return durable ? pending : undefined;
    } catch (error) {
      recordingError = error;
      return undefined;
    }
  };

  /**
   * The record of a settled effect. Built as one literal: on Node 20 an object spread followed
   * by more properties costs microseconds (docs/design/journal.md "Measurements").
   */
  const recordOf = (
    kind: EffectKind,
    effect: string,
    effectOrigin: EffectOrigin,
    request: string,
    order: number,
    started: number,
    output: string | undefined,
    failure: RecordedFailure | undefined,
  ): EffectRecord => {
    arrived += 1;
    const ended = performance.now();
    return {
      effect,
      kind,
      origin: effectOrigin,
      request,
      issued: order,
      arrival: arrived,
      eventsBefore: events,
      startedUs: (started - origin) * 1000,
      durationUs: (ended - started) * 1000,
      output,
      failure,
    };
  };

  async function perform<T>(
    kind: EffectKind,
    effect: string,
    effectOrigin: EffectOrigin,
    request: string,
    run: () => Promise<T>,
  ): Promise<T> {
    issued += 1;
    const order = issued;
    const started = performance.now();
    let output: T;
    try {
      output = await run();
    } catch (error) {
      const pending = settle(
        recordOf(
          kind,
          effect,
          effectOrigin,
          request,
          order,
          started,
          undefined,
          recordFailure(error),
        ),
      );
      if (pending !== undefined) await pending;
      throw error;
    }
    const pending = settle(
      recordOf(
        kind,
        effect,
        effectOrigin,
        request,
        order,
        started,
        encodeOutput(output),
        undefined,
      ),
    );
    if (pending !== undefined) await pending;
    return output;
  }

  const effects: EffectPort = {
    storeOp: (request) =>
      perform("store", request.effect, request.origin, storeRequestText(request), () =>
        inner.storeOp(request),
      ),
    emit(event: RunEvent): void {
      events += 1;
      // Every tool call a caller made, whatever the tool (journal.md "What a tool call count counts").
      if (event.type === "tool_call_started") toolCalls += 1;
      inner.emit(event);
      if (recordingError !== undefined) return;
      recorder.recordEvent({
        seq: event.seq,
        type: event.type,
        chain: event.chain,
        line: formatEventLine(event),
      });
    },
  };
  const recall = inner.recall?.bind(inner);
  // An observation is recorded as its task_observed event; the inner port may answer it.
  if (recall !== undefined) effects.recall = recall;
  const toolCall = inner.toolCall?.bind(inner);
  if (toolCall !== undefined) {
    effects.toolCall = (request) => {
      return perform("tool", request.effect, request.origin, toolRequestText(request), () =>
        toolCall(request),
      );
    };
  }
  const modelRound = inner.modelRound?.bind(inner);
  if (modelRound !== undefined) {
    effects.modelRound = async (request) => {
      modelRounds += 1;
      const reply = await perform(
        "model",
        request.effect,
        request.origin,
        modelRequestText(request),
        () => modelRound(request),
      );
      inputTokens += reply.usage.inputTokens;
      outputTokens += reply.usage.outputTokens;
      return reply;
    };
  }

  const counts = (): RunCounts => ({
    effects: issued,
    modelRounds,
    toolCalls,
    inputTokens,
    outputTokens,
    events,
  });

  return {
    effects,
    runId: recorder.runId,
    get recordingError() {
      return recordingError;
    },
    counts,
    async finish(result: RunResult, endedAt: number = Date.now()): Promise<void> {
      if (recordingError !== undefined) return;
      const ending: RunEnding = {
        outcome: result.outcome,
        endedAt,
        result: encodeValue(result),
        ...(result.outcome === "failed" ? { errorKind: result.error.kind } : {}),
        counts: counts(),
      };
      try {
        await recorder.finish(ending);
      } catch (error) {
        recordingError = error;
      }
    },
  };
}
