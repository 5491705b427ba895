import type { EffectOrigin } from "@runvil/protocol";
import type { EffectKind, EffectRecord, EventRecord } from "../records";
import { failureOf } from "../summary-rows";

/**
 * The text of one group commit (schema version 3, docs/design/journal.md "Writes and crashes"):
 * its effects in one text and its events in another, each a run of length-prefixed fields —
 * `{length}:{text}`, or `~` for an absent field — so any text (a 10 MB output, an event line
 * with its newline) is kept exactly, written by concatenation (no escaping) and read by slicing.
 * An effect has {@link EFFECT_FIELDS} fields, an event {@link EVENT_FIELDS}.
 */

/** Fields per effect: id, kind, origin, request, issued, arrival, started, duration, events before, output, failure. */
export const EFFECT_FIELDS = 11;
/** Fields per event: seq, type, chain, line. */
export const EVENT_FIELDS = 4;

const KINDS: ReadonlySet<string> = new Set<EffectKind>(["store", "tool", "model"]);

/**
 * A field's text as SQLite will give it back: a lone surrogate (which no codec text holds: JSON
 * escapes them) becomes U+FFFD, one code unit for one, so the lengths written stay true.
 */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

function field(text: string): string {
  return `${text.length}:${text}`;
}

function optional(text: string | undefined): string {
  return text === undefined ? "~" : field(text);
}

function integer(value: number): string {
  const text = String(Math.round(value));
  return `${text.length}:${text}`;
}

/** Whether two origins are the same (an origin is its five texts). */
export function sameOrigin(a: EffectOrigin, b: EffectOrigin | undefined): boolean {
  return (
    b !== undefined &&
    a.execution === b.execution &&
    a.chain === b.chain &&
    a.entry === b.entry &&
    a.section === b.section &&
    a.task === b.task
  );
}

/**
 * Appends one effect's fields to a batch's text. Its origin is written as absent when it is
 * the same as `previous`, the origin of the effect before it in the batch (the effects of one
 * entry share theirs), and read back as that one.
 */
export function appendEffect(
  batch: string,
  effect: EffectRecord,
  previous: EffectOrigin | undefined,
): string {
  return (
    batch +
    field(wellFormed(effect.effect)) +
    field(effect.kind) +
    (sameOrigin(effect.origin, previous) ? "~" : field(JSON.stringify(effect.origin))) +
    field(wellFormed(effect.request)) +
    integer(effect.issued) +
    integer(effect.arrival) +
    integer(effect.startedUs) +
    integer(effect.durationUs) +
    integer(effect.eventsBefore) +
    optional(effect.output === undefined ? undefined : wellFormed(effect.output)) +
    optional(effect.failure === undefined ? undefined : JSON.stringify(effect.failure))
  );
}

/** Appends one event's fields to a batch's text. */
export function appendEvent(batch: string, event: EventRecord): string {
  return (
    batch +
    integer(event.seq) +
    field(wellFormed(event.type)) +
    field(wellFormed(event.chain)) +
    field(wellFormed(event.line))
  );
}

/** A batch text that cannot be read: what is wrong and at which character. */
export class BatchTextError extends Error {
  constructor(message: string, at: number) {
    super(`${message} at character ${at}`);
    this.name = "BatchTextError";
  }
}

/** Splits a batch's text into records of `width` fields each (undefined: an absent field). */
export function readFields(text: string, width: number): (string | undefined)[][] {
  const records: (string | undefined)[][] = [];
  let record: (string | undefined)[] = [];
  let at = 0;
  while (at < text.length) {
    if (text.charCodeAt(at) === 126 /* ~ */) {
      record.push(undefined);
      at += 1;
    } else {
      const colon = text.indexOf(":", at);
      const length = colon === -1 ? Number.NaN : Number(text.slice(at, colon));
      if (colon === at || !Number.isSafeInteger(length) || length < 0)
        throw new BatchTextError("a field without its length", at);
      const end = colon + 1 + length;
      if (end > text.length) throw new BatchTextError("a field cut short", at);
      record.push(text.slice(colon + 1, end));
      at = end;
    }
    if (record.length === width) {
      records.push(record);
      record = [];
    }
  }
  if (record.length > 0) throw new BatchTextError("a record cut short", at);
  return records;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new BatchTextError(`an effect without its ${name}`, 0);
  return value;
}

function count(value: string | undefined, name: string): number {
  const number = Number(required(value, name));
  if (!Number.isSafeInteger(number))
    throw new BatchTextError(`an effect's ${name} is no number`, 0);
  return number;
}

/** The effects of a batch's text, in the order they were written (arrival order). */
export function readEffectBatch(text: string): EffectRecord[] {
  let previous: EffectOrigin | undefined;
  return readFields(text, EFFECT_FIELDS).map((fields) => {
    const [effect, kind, originText, request, issued, arrival, started, duration, before] = fields;
    const output = fields[9];
    const failure = failureOf(fields[10] ?? null);
    const kindText = required(kind, "kind");
    const origin =
      originText === undefined ? previous : (JSON.parse(originText) as EffectRecord["origin"]);
    if (origin === undefined) throw new BatchTextError("an effect without its origin", 0);
    previous = origin;
    if (!KINDS.has(kindText)) throw new BatchTextError(`an effect of kind ${kindText}`, 0);
    return {
      effect: required(effect, "id"),
      kind: kindText as EffectKind,
      origin,
      request: required(request, "request"),
      issued: count(issued, "issue order"),
      arrival: count(arrival, "arrival order"),
      startedUs: count(started, "start"),
      durationUs: count(duration, "duration"),
      eventsBefore: count(before, "event count"),
      ...(output === undefined ? {} : { output }),
      ...(failure === undefined ? {} : { failure }),
    };
  });
}

/** The events of a batch's text, in the order they were emitted. */
export function readEventBatch(text: string): EventRecord[] {
  return readFields(text, EVENT_FIELDS).map(([seq, type, chain, line]) => {
    const number = Number(seq);
    if (seq === undefined || !Number.isSafeInteger(number))
      throw new BatchTextError("an event without its seq", 0);
    if (type === undefined || chain === undefined || line === undefined)
      throw new BatchTextError(`event ${number} cut short`, 0);
    return { seq: number, type, chain, line };
  });
}
