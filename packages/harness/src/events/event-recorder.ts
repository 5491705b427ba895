import type { EventSink, RunEventRecord } from "./event-record";

/** Options of an EventRecorder. */
export interface EventRecorderOptions {
  /** The first sequence number (default 1), e.g. to continue a resumed run. */
  readonly firstSeq?: number;
}

/**
 * Numbers a run's events in the order they are recorded and hands them to a
 * sink (memory or a JSON Lines file), which stores them in that order.
 * Generic over the event type: the Engine defines the event shapes.
 */
export class EventRecorder<E> {
  readonly #sink: EventSink<E>;
  #nextSeq: number;
  #closed = false;

  /** A recorder writing to `sink`. */
  constructor(sink: EventSink<E>, options: EventRecorderOptions = {}) {
    const first = options.firstSeq ?? 1;
    if (!Number.isSafeInteger(first) || first < 0) {
      throw new RangeError(`firstSeq must be a non-negative safe integer, got ${String(first)}`);
    }
    this.#sink = sink;
    this.#nextSeq = first;
  }

  /** The sequence number the next event will get. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /**
   * Records `event` with the next sequence number and returns the record.
   * Throws (and spends no number) when the sink refuses the event, or after
   * close.
   */
  record(event: E): RunEventRecord<E> {
    if (this.#closed) throw new Error("the event recorder is closed");
    const record: RunEventRecord<E> = Object.freeze({ seq: this.#nextSeq, event });
    this.#sink.write(record);
    this.#nextSeq += 1;
    return record;
  }

  /** Resolves once every event recorded so far is stored by the sink. */
  flush(): Promise<void> {
    return this.#sink.flush();
  }

  /** Flushes and closes the sink; later record calls throw. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#sink.close();
  }
}
