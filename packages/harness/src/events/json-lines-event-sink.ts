import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import type { EventSink, RunEventRecord } from "./event-record";

/** Options of a JsonLinesEventSink. */
export interface JsonLinesEventSinkOptions {
  /** Add to an existing file instead of starting it afresh (default false: truncate). */
  readonly append?: boolean;
  /** fsync the file on every flush (default false). */
  readonly sync?: boolean;
}

/** The JSON Lines text of a record: `{"seq":N,"event":...}` and a newline. */
export function eventRecordLine<E>(record: RunEventRecord<E>): string {
  const event = JSON.stringify(record.event);
  if (event === undefined) {
    throw new TypeError(`event ${record.seq} is not JSON data, got ${typeof record.event}`);
  }
  return `{"seq":${record.seq},"event":${event}}\n`;
}

/**
 * An EventSink that writes each record as one JSON Lines line to a file, in
 * order. Lines are serialized when the record is taken (so an event that is
 * not JSON data throws at once) and written in batches by one writer, never
 * two writes at a time. A write failure makes the sink fail: flush and close
 * reject with it and later writes throw it.
 */
export class JsonLinesEventSink<E> implements EventSink<E> {
  /** The file the records go to. */
  readonly filePath: string;
  readonly #append: boolean;
  readonly #sync: boolean;
  #pending: string[] = [];
  #writer: Promise<void> | undefined;
  #handle: Promise<FileHandle> | undefined;
  #failure: unknown;
  #failed = false;
  #closed = false;

  /** A sink writing to `filePath` (opened at the first write or flush). */
  constructor(filePath: string, options: JsonLinesEventSinkOptions = {}) {
    this.filePath = filePath;
    this.#append = options.append ?? false;
    this.#sync = options.sync ?? false;
  }

  write(record: RunEventRecord<E>): void {
    if (this.#failed) throw this.#failure;
    if (this.#closed) throw new Error("the event sink is closed");
    this.#pending.push(eventRecordLine(record));
    this.#writer ??= this.#drain();
  }

  async flush(): Promise<void> {
    if (this.#writer === undefined && !this.#failed) await this.#file();
    while (this.#writer !== undefined) await this.#writer;
    if (this.#failed) throw this.#failure;
    if (this.#sync) await (await this.#file()).sync();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      const handle = this.#handle;
      this.#handle = undefined;
      // An open that failed has already been reported by flush.
      if (handle !== undefined)
        await handle.then(
          (file) => file.close(),
          () => undefined,
        );
    }
  }

  /** The open file, opened once. */
  #file(): Promise<FileHandle> {
    this.#handle ??= open(this.filePath, this.#append ? "a" : "w");
    return this.#handle;
  }

  /** Writes pending lines in batches until none are left, then clears the writer. */
  async #drain(): Promise<void> {
    try {
      const handle = await this.#file();
      while (this.#pending.length > 0) {
        const batch = this.#pending.join("");
        this.#pending = [];
        await handle.write(batch);
      }
    } catch (error) {
      this.#failed = true;
      this.#failure = error;
      this.#pending = [];
    } finally {
      this.#writer = undefined;
    }
  }
}
