import type { EventSink, RunEventRecord } from "./event-record";

/** An EventSink that keeps the records in memory, in order (tests, scenario checks). */
export class MemoryEventSink<E> implements EventSink<E> {
  readonly #records: RunEventRecord<E>[] = [];
  #closed = false;

  /** The records taken so far, in order. */
  get records(): readonly RunEventRecord<E>[] {
    return this.#records;
  }

  /** The events taken so far, in order, without their numbers. */
  get events(): E[] {
    return this.#records.map((record) => record.event);
  }

  write(record: RunEventRecord<E>): void {
    if (this.#closed) throw new Error("the event sink is closed");
    this.#records.push(record);
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.#closed = true;
  }
}
