import {
  type EffectOrigin,
  type EffectPort,
  formatEventLine,
  type RunEvent,
} from "@runvil/protocol";
import { decodeValue } from "./codec";
import { modelRequestText, storeRequestText, toolRequestText } from "./effect-requests";
import { failureError } from "./failure";
import type { EffectKind, EffectRecord, EventRecord } from "./records";

/** Where a divergence happened in the replaying run. */
export interface DivergencePlace {
  /** The section (the title for the H1 pass). */
  readonly section: string;
  /** The entry id. */
  readonly entry: string;
  /** The chain id. */
  readonly chain: string;
  /** The block the chain was running (its location label, with its line), when known. */
  readonly block?: string;
}

/** The first place where a replay did something the recorded run did not. */
export type Divergence =
  /** The replay asked for an effect the recorded run asked for differently. */
  | {
      readonly kind: "changed_request";
      readonly effect: string;
      readonly place: DivergencePlace;
      /** The recorded request (the journal's encoding), with its kind. */
      readonly recorded: { readonly kind: EffectKind; readonly request: string };
      /** The replay's request. */
      readonly replayed: { readonly kind: EffectKind; readonly request: string };
    }
  /** The replay asked for an effect id the recorded run never used. */
  | {
      readonly kind: "unrecorded_effect";
      readonly effect: string;
      readonly place: DivergencePlace;
      readonly replayed: { readonly kind: EffectKind; readonly request: string };
    }
  /** The recorded run made effects the replay never asked for (the first of them). */
  | {
      readonly kind: "missing_effect";
      readonly effect: string;
      readonly place: DivergencePlace;
      readonly recorded: { readonly kind: EffectKind; readonly request: string };
    }
  /** An event differs (compared per chain, `seq` left out): the first differing one. */
  | {
      readonly kind: "changed_event";
      /** The event's position in its chain's sequence (1-based). */
      readonly index: number;
      readonly place: DivergencePlace;
      /** The recorded line, or null when the replay emitted more events on this chain. */
      readonly recorded: string | null;
      /** The replay's line, or null when the replay emitted fewer events on this chain. */
      readonly replayed: string | null;
    };

/** What a replay made of the recorded events. */
export type EventComparison =
  /** Every line is byte for byte the recorded one. */
  | "identical"
  /** Each chain's events are the recorded ones; chains interleaved differently (determinism.md). */
  | "identical_per_chain"
  | "different";

/** Options of {@link createReplayPort}. */
export interface ReplayPortOptions {
  /** Called once, at the first divergence of an effect (abort the run here: nothing is live). */
  readonly onDivergence?: (divergence: Divergence) => void;
  /** Also receives every event of the replaying run. */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * How long a result waits for the results recorded as arriving before it (ms, default 25):
   * results are handed over in their recorded arrival order, so concurrent chains interleave as
   * they did; one that waits longer (the replay took another path) is handed over anyway.
   */
  readonly arrivalWaitMs?: number;
}

/** The port a replay runs on, and what it found. */
export interface ReplayPort {
  /** The EffectPort: every effect answered from the journal, nothing live. */
  readonly effects: EffectPort;
  /** The first effect divergence, once there is one. */
  readonly divergence: Divergence | undefined;
  /** How many effects the journal answered. */
  readonly answered: number;
  /**
   * Compares the replay's events with the recorded ones and checks that every recorded effect
   * was asked for; call it when the run ended. Returns the events' verdict and the first
   * divergence (the effect divergence when there was one).
   */
  conclude(): { readonly events: EventComparison; readonly divergence: Divergence | undefined };
}

interface Parked {
  readonly record: EffectRecord;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

function placeOf(origin: EffectOrigin, block: string | undefined): DivergencePlace {
  return {
    section: origin.section,
    entry: origin.entry,
    chain: origin.chain,
    ...(block === undefined ? {} : { block }),
  };
}

interface EventFacts {
  readonly chain?: unknown;
  readonly entry?: unknown;
  readonly section?: unknown;
}

function eventPlace(line: string, blocks: ReadonlyMap<string, string>): DivergencePlace {
  const facts = JSON.parse(line) as EventFacts;
  const chain = typeof facts.chain === "string" ? facts.chain : "";
  const block = blocks.get(chain);
  return {
    section: typeof facts.section === "string" ? facts.section : "",
    entry: typeof facts.entry === "string" ? facts.entry : "",
    chain,
    ...(block === undefined ? {} : { block }),
  };
}

/** A line without its `seq` (the first field: `{"seq":N,`). */
function withoutSeq(line: string): string {
  const comma = line.indexOf(",");
  return comma < 0 ? line : line.slice(comma + 1);
}

function perChain(lines: readonly { chain: string; line: string }[]): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  for (const { chain, line } of lines) {
    let list = chains.get(chain);
    if (list === undefined) {
      list = [];
      chains.set(chain, list);
    }
    list.push(withoutSeq(line));
  }
  return chains;
}

/** The recorded `task_observed` events' answers, by the effect id each took. */
function recordedObservations(
  events: readonly EventRecord[],
): Map<string, { readonly via: string; readonly answer: string }> {
  const observed = new Map<string, { via: string; answer: string }>();
  for (const event of events) {
    if (event.type !== "task_observed") continue;
    const fields = JSON.parse(event.line) as { via?: unknown; answer?: unknown; effect?: unknown };
    if (
      typeof fields.via === "string" &&
      typeof fields.answer === "string" &&
      typeof fields.effect === "string"
    ) {
      observed.set(fields.effect, { via: fields.via, answer: fields.answer });
    }
  }
  return observed;
}

/**
 * A port that answers every effect of a run from its recorded effects (matched by effect id,
 * never by position) and checks each request against the recorded one
 * (docs/design/journal.md "Replay"). Nothing live is ever called.
 */
export function createReplayPort(
  recordedEffects: readonly EffectRecord[],
  recordedEvents: readonly EventRecord[],
  options: ReplayPortOptions = {},
): ReplayPort {
  const byId = new Map<string, EffectRecord>();
  for (const record of recordedEffects) byId.set(record.effect, record);
  const observed = recordedObservations(recordedEvents);
  const arrivals = [...recordedEffects].sort((a, b) => a.arrival - b.arrival).map((r) => r.arrival);
  const asked = new Set<string>();
  const parked = new Map<number, Parked>();
  const blocks = new Map<string, string>();
  const lines: { chain: string; line: string }[] = [];
  const waitMs = options.arrivalWaitMs ?? 25;
  let nextArrival = 0; // index into `arrivals`
  let watchdog: NodeJS.Timeout | undefined;
  let divergence: Divergence | undefined;
  let answered = 0;
  let emitted = 0;
  let drainQueued = false;
  const queueDrain = (): void => {
    if (drainQueued) return;
    drainQueued = true;
    queueMicrotask(() => {
      drainQueued = false;
      drain();
    });
  };

  const deliver = ({ record, resolve, reject }: Parked): void => {
    answered += 1;
    if (record.failure !== undefined) reject(failureError(record.failure));
    else resolve(record.output === undefined ? undefined : decodeValue(record.output));
  };

  const drain = (): void => {
    for (;;) {
      const arrival = arrivals[nextArrival];
      if (arrival === undefined) break;
      const waiting = parked.get(arrival);
      // The next result arrives when it did: once it was asked for, and once the replay has
      // emitted as many events as the recorded run had then (a logical clock).
      if (waiting === undefined || emitted < waiting.record.eventsBefore) break;
      parked.delete(arrival);
      nextArrival += 1;
      deliver(waiting);
    }
    if (watchdog !== undefined) clearTimeout(watchdog);
    watchdog = undefined;
    if (parked.size > 0) {
      watchdog = setTimeout(() => {
        watchdog = undefined;
        // The replay took another path: hand over the earliest parked result anyway.
        const first = Math.min(...parked.keys());
        const index = arrivals.indexOf(first);
        if (index >= nextArrival) nextArrival = index;
        const waiting = parked.get(first);
        if (waiting !== undefined) {
          parked.delete(first);
          nextArrival = index + 1;
          deliver(waiting);
        }
        drain();
      }, waitMs);
      watchdog.unref?.();
    }
  };

  const diverge = (found: Divergence): Error => {
    if (divergence === undefined) {
      divergence = found;
      options.onDivergence?.(found);
    }
    return new Error(
      `the replay diverged from the recorded run at effect ${found.kind === "changed_event" ? "" : found.effect}`,
    );
  };

  function answer<T>(
    kind: EffectKind,
    effect: string,
    origin: EffectOrigin,
    request: string,
  ): Promise<T> {
    const record = byId.get(effect);
    const block = blocks.get(origin.chain);
    if (record === undefined || asked.has(effect)) {
      return Promise.reject(
        diverge({
          kind: "unrecorded_effect",
          effect,
          place: placeOf(origin, block),
          replayed: { kind, request },
        }),
      );
    }
    asked.add(effect);
    if (record.kind !== kind || record.request !== request) {
      return Promise.reject(
        diverge({
          kind: "changed_request",
          effect,
          place: placeOf(origin, block),
          recorded: { kind: record.kind, request: record.request },
          replayed: { kind, request },
        }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      parked.set(record.arrival, {
        record,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      // In a microtask: the caller attaches its continuation first, so continuations run in
      // the order the results are handed over.
      queueDrain();
    });
  }

  const effects: EffectPort = {
    storeOp: (request) =>
      answer("store", request.effect, request.origin, storeRequestText(request)),
    toolCall: (request) => answer("tool", request.effect, request.origin, toolRequestText(request)),
    modelRound: (request) =>
      answer("model", request.effect, request.origin, modelRequestText(request)),
    // join_any's choice and task_status's text come from the record, so they do not depend on
    // the replay's timing (docs/design/journal.md "Replay").
    recall: (request) => {
      const recorded = observed.get(request.effect);
      return recorded?.via === request.via ? recorded.answer : undefined;
    },
    emit(event: RunEvent): void {
      emitted += 1;
      if (event.type === "chunk_started") blocks.set(event.chain, event.block);
      lines.push({ chain: event.chain, line: formatEventLine(event) });
      if (parked.size > 0) queueDrain();
      options.onEvent?.(event);
    },
  };

  const compareEvents = (): { events: EventComparison; first?: Divergence } => {
    const exact =
      lines.length === recordedEvents.length &&
      lines.every((line, index) => line.line === recordedEvents[index]?.line);
    if (exact) return { events: "identical" };
    const replayed = perChain(lines);
    const recorded = perChain(recordedEvents);
    const chains = [...new Set([...recorded.keys(), ...replayed.keys()])];
    // The chain whose difference comes first in the recorded run decides which one is reported.
    let first: Divergence | undefined;
    let firstSeq = Number.POSITIVE_INFINITY;
    for (const chain of chains) {
      const a = recorded.get(chain) ?? [];
      const b = replayed.get(chain) ?? [];
      const length = Math.max(a.length, b.length);
      for (let i = 0; i < length; i += 1) {
        if (a[i] === b[i]) continue;
        const seqOf =
          recordedEvents.filter((e) => e.chain === chain)[i]?.seq ?? Number.MAX_SAFE_INTEGER;
        if (seqOf < firstSeq) {
          firstSeq = seqOf;
          const recordedLine = recordedEvents.filter((e) => e.chain === chain)[i]?.line ?? null;
          const replayedLine = lines.filter((e) => e.chain === chain)[i]?.line ?? null;
          const placeBlocks = new Map<string, string>();
          for (const e of recordedEvents) {
            if (e.seq >= seqOf) break;
            if (e.type === "chunk_started" && e.chain === chain) {
              const block = (JSON.parse(e.line) as { block?: unknown }).block;
              if (typeof block === "string") placeBlocks.set(chain, block);
            }
          }
          first = {
            kind: "changed_event",
            index: i + 1,
            place: eventPlace(recordedLine ?? replayedLine ?? "{}", placeBlocks),
            recorded: recordedLine,
            replayed: replayedLine,
          };
        }
        break;
      }
    }
    return first === undefined ? { events: "identical_per_chain" } : { events: "different", first };
  };

  return {
    effects,
    get divergence() {
      return divergence;
    },
    get answered() {
      return answered;
    },
    conclude() {
      if (watchdog !== undefined) clearTimeout(watchdog);
      const compared = compareEvents();
      if (divergence === undefined) {
        const missing = recordedEffects.find((record) => !asked.has(record.effect));
        if (missing !== undefined) {
          divergence = {
            kind: "missing_effect",
            effect: missing.effect,
            place: placeOf(missing.origin, undefined),
            recorded: { kind: missing.kind, request: missing.request },
          };
        }
      }
      return { events: compared.events, divergence: divergence ?? compared.first };
    },
  };
}
