import type { EffectPort, RunResult } from "@runvil/protocol";
import { decodeValue, encodeValue } from "./codec";
import { createIntentPort } from "./intent-port";
import type { Journal, RunRecorder } from "./journal";
import { createJournalPort } from "./journal-port";
import type { EffectRecord, EventRecord, RunCounts, RunEnding, StoreIntent } from "./records";
import { createReplayPort, type Divergence } from "./replay-port";

/** Options of {@link createResumePort}. */
export interface ResumePortOptions {
  /**
   * Also applies every store effect the journal answers to the inner port's store: a store
   * that starts empty in each process (the in-memory store) is rebuilt from the record.
   */
  readonly reapplyStore?: boolean;
  /**
   * A persistent store's fingerprint of a file (see {@link createIntentPort}): with it, every
   * live store change records an intent first, and a change whose intent the record holds
   * without a result is answered as done when the file changed since, else applied again.
   */
  readonly fingerprint?: (path: string) => Promise<string>;
  /** The run's recorded store intents (`Journal.readIntents`). */
  readonly intents?: readonly StoreIntent[];
  /** Called once, at the first divergence (cancel the run: the record is left as it was). */
  readonly onDivergence?: (divergence: Divergence) => void;
  /**
   * How long a live result waits, with nothing happening, for the replayed part to catch up
   * (ms, default 50): a live result is handed over only after every recorded event was emitted
   * again and every recorded result was handed over, as in the run that was cut short.
   */
  readonly idleMs?: number;
}

/** The port a resumed run runs on. */
export interface ResumePort {
  /** The EffectPort: journaled effects answered from the record, the rest live and recorded. */
  readonly effects: EffectPort;
  readonly runId: string;
  /** The first divergence from the record, once there is one. */
  readonly divergence: Divergence | undefined;
  /** How many effects the journal answered. */
  readonly answered: number;
  /** How many effects ran live. */
  readonly live: number;
  /** How many store changes were found applied by their intent (not applied again). */
  readonly foundApplied: number;
  /** The first failure to record (recording stopped there; the run went on). */
  readonly recordingError: unknown;
  /** Writes the ending into the run's record (nothing after a divergence). */
  finish(result: RunResult, endedAt?: number): Promise<void>;
}

function recordedCounts(effects: readonly EffectRecord[]): Omit<RunCounts, "events" | "toolCalls"> {
  let modelRounds = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const effect of effects) {
    if (effect.kind !== "model") continue;
    modelRounds += 1;
    if (effect.output === undefined) continue;
    const reply = decodeValue(effect.output) as {
      usage?: { inputTokens?: unknown; outputTokens?: unknown };
    } | null;
    const used = reply?.usage;
    if (typeof used?.inputTokens === "number") inputTokens += used.inputTokens;
    if (typeof used?.outputTokens === "number") outputTokens += used.outputTokens;
  }
  return { effects: effects.length, modelRounds, inputTokens, outputTokens };
}

/**
 * The port of a resumed run (docs/design/resume.md): the effects the record holds are answered
 * from it (matched by effect id, the request checked as a replay checks it, handed over in the
 * recorded arrival order); the first effect it does not hold, and every one after, runs live on
 * `inner` and is recorded into the same run. The events the record holds are not written again;
 * where the resumed run's events leave the recorded ones (the tail a stop or a cancel wrote),
 * the recorded tail is replaced. Nothing is written to the record before the first live effect
 * (or the ending), so a divergence found before it leaves the record untouched.
 */
export function createResumePort(
  journal: Pick<Journal, "resumeRun">,
  runId: string,
  inner: EffectPort,
  journaledEffects: readonly EffectRecord[],
  recordedEvents: readonly EventRecord[],
  options: ResumePortOptions = {},
): ResumePort {
  // A call a cancel or a stop aborted failed for no recorded reason: it runs again
  // (Journal.resumeRun removes it from the record when the record is reopened).
  const recordedEffects = journaledEffects.filter((record) => record.failure?.type !== "error");
  const recordedIds = new Set(recordedEffects.map((record) => record.effect));
  const pendingIntents = new Map<string, StoreIntent>();
  for (const intent of options.intents ?? []) {
    if (!recordedIds.has(intent.effect)) pendingIntents.set(intent.effect, intent);
  }
  const events = [...recordedEvents].sort((a, b) => a.seq - b.seq);
  let baseIssued = 0;
  let baseArrival = 0;
  for (const record of recordedEffects) {
    baseIssued = Math.max(baseIssued, record.issued);
    baseArrival = Math.max(baseArrival, record.arrival);
  }
  const idleMs = options.idleMs ?? 50;

  let divergence: Divergence | undefined;
  let answered = 0;
  let live = 0;
  let foundApplied = 0;
  let ownRecordingError: unknown;

  // The recorded events the resumed run emitted again (a prefix), and where it left them.
  let consumed = 0;
  let leftPrefix = false;
  let dropFrom: number | undefined;
  const held: EventRecord[] = [];
  let real: RunRecorder | undefined;
  let reopening: Promise<RunRecorder | undefined> | undefined;

  // Live results wait for the replayed part (a logical clock, with an idle fallback).
  const waiters = new Set<() => void>();
  const progressed = (): void => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const caughtUp = (): boolean =>
    leftPrefix || (consumed >= events.length && answered >= recordedEffects.length);
  const waitForReplay = async (): Promise<void> => {
    while (!caughtUp()) {
      const moved = await new Promise<boolean>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, idleMs);
        waiters.add(wake);
      });
      if (!moved) return;
    }
  };

  /** Reopens the record (once): clears the ending, replaces a left tail, writes held events. */
  const reopen = (): Promise<RunRecorder | undefined> => {
    reopening ??= (async () => {
      try {
        const recorder = await journal.resumeRun(runId);
        if (dropFrom !== undefined) await recorder.dropEventsFrom(dropFrom);
        for (const event of held.splice(0)) recorder.recordEvent(event);
        real = recorder;
        return recorder;
      } catch (error) {
        ownRecordingError ??= error;
        return undefined;
      }
    })();
    return reopening;
  };

  const dropNow = (recorder: RunRecorder, seq: number): void => {
    try {
      recorder.dropEventsFrom(seq)?.catch((error: unknown) => {
        ownRecordingError ??= error;
      });
    } catch (error) {
      ownRecordingError ??= error;
    }
  };

  const unopened = (): Error => new Error(`run ${runId}'s record is not open for writing`);
  const filter: RunRecorder = {
    runId,
    recordEvent(event) {
      if (!leftPrefix) {
        const recorded = events[consumed];
        if (recorded !== undefined && recorded.seq === event.seq && recorded.line === event.line) {
          consumed += 1;
          return;
        }
        leftPrefix = true;
        if (recorded !== undefined) {
          dropFrom = recorded.seq;
          // Reopened already (a live effect came first): the recorded tail goes now.
          if (real !== undefined) dropNow(real, recorded.seq);
        }
      }
      if (real === undefined) held.push(event);
      else real.recordEvent(event);
    },
    recordEffect(effect, durable) {
      if (real === undefined) throw ownRecordingError ?? unopened();
      return real.recordEffect(
        { ...effect, issued: effect.issued + baseIssued, arrival: effect.arrival + baseArrival },
        durable,
      );
    },
    recordIntent(intent) {
      if (real === undefined) throw ownRecordingError ?? unopened();
      return real.recordIntent(intent);
    },
    dropEventsFrom(seq) {
      if (real === undefined) throw ownRecordingError ?? unopened();
      return real.dropEventsFrom(seq);
    },
    finish(ending) {
      if (real === undefined) return Promise.reject(ownRecordingError ?? unopened());
      return real.finish(ending);
    },
  };

  const fingerprint = options.fingerprint;
  const applying =
    fingerprint === undefined
      ? inner
      : createIntentPort(inner, filter, {
          fingerprint,
          onRecordingError: (error) => {
            ownRecordingError ??= error;
          },
        });

  /** Runs one live effect: reopens the record first, hands the result over once caught up. */
  async function runLive<T>(work: () => Promise<T>): Promise<T> {
    await reopen();
    live += 1;
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await waitForReplay();
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  }

  const livePort: EffectPort = {
    storeOp: (request) =>
      runLive(async () => {
        const intent = pendingIntents.get(request.effect);
        pendingIntents.delete(request.effect);
        if (intent !== undefined && fingerprint !== undefined) {
          if ((await fingerprint(intent.path)) !== intent.before) {
            // Applied before the crash, its result never journaled: not applied again. Every
            // change returns nothing, and a failed change leaves the file as it was.
            foundApplied += 1;
            return undefined as never;
          }
        }
        return applying.storeOp(request);
      }),
    emit: (event) => inner.emit(event),
  };
  const innerTool = inner.toolCall?.bind(inner);
  if (innerTool !== undefined) {
    livePort.toolCall = (request) => runLive(() => innerTool(request));
  }
  const innerModel = inner.modelRound?.bind(inner);
  if (innerModel !== undefined) {
    livePort.modelRound = (request) => runLive(() => innerModel(request));
  }
  const journaled = createJournalPort(livePort, filter);

  const replay = createReplayPort(recordedEffects, recordedEvents, {
    onDivergence: (found) => {
      divergence ??= found;
      options.onDivergence?.(found);
    },
  });
  const fromRecord = <T>(answer: Promise<T>): Promise<T> =>
    answer.then(
      (value) => {
        answered += 1;
        progressed();
        return value;
      },
      (error: unknown) => {
        answered += 1;
        progressed();
        throw error;
      },
    );

  const effects: EffectPort = {
    storeOp(request) {
      if (!recordedIds.has(request.effect)) return journaled.effects.storeOp(request);
      // An in-memory store is rebuilt: the recorded change is applied again (its answer is
      // the recorded one; the store is the same as it was then).
      if (options.reapplyStore === true) inner.storeOp(request).catch(() => {});
      return fromRecord(replay.effects.storeOp(request));
    },
    emit(event) {
      replay.effects.emit(event);
      journaled.effects.emit(event);
      progressed();
    },
  };
  const replayTool = replay.effects.toolCall;
  const journaledTool = journaled.effects.toolCall;
  if (replayTool !== undefined && journaledTool !== undefined) {
    effects.toolCall = (request) =>
      recordedIds.has(request.effect) ? fromRecord(replayTool(request)) : journaledTool(request);
  }
  const replayModel = replay.effects.modelRound;
  const journaledModel = journaled.effects.modelRound;
  if (replayModel !== undefined && journaledModel !== undefined) {
    effects.modelRound = (request) =>
      recordedIds.has(request.effect) ? fromRecord(replayModel(request)) : journaledModel(request);
  }

  const before = recordedCounts(recordedEffects);
  return {
    effects,
    runId,
    get divergence() {
      return divergence;
    },
    get answered() {
      return answered;
    },
    get live() {
      return live;
    },
    get foundApplied() {
      return foundApplied;
    },
    get recordingError() {
      return ownRecordingError ?? journaled.recordingError;
    },
    async finish(result: RunResult, endedAt: number = Date.now()): Promise<void> {
      replay.conclude();
      if (divergence !== undefined) return;
      const recorder = await reopen();
      if (recorder === undefined || journaled.recordingError !== undefined) return;
      const now = journaled.counts();
      const ending: RunEnding = {
        outcome: result.outcome,
        endedAt,
        result: encodeValue(result),
        ...(result.outcome === "failed" ? { errorKind: result.error.kind } : {}),
        counts: {
          effects: before.effects + now.effects,
          modelRounds: before.modelRounds + now.modelRounds,
          // Counted from the events, which the resumed run emitted again from the first.
          toolCalls: now.toolCalls,
          inputTokens: before.inputTokens + now.inputTokens,
          outputTokens: before.outputTokens + now.outputTokens,
          events: now.events,
        },
      };
      try {
        // The run ended inside the recorded events (fewer than the record had): the rest go.
        const rest = leftPrefix ? undefined : events[consumed];
        if (rest !== undefined) await recorder.dropEventsFrom(rest.seq);
        await recorder.finish(ending);
      } catch (error) {
        ownRecordingError ??= error;
      }
    },
  };
}
