import { closeSync, openSync, writeSync } from "node:fs";

/** How many bytes of event lines the sink holds before it writes them (64 KiB). */
export const EVENT_BUFFER_BYTES = 64 * 1024;

/**
 * The `--events` file, written as the run goes (docs/design/events.md "The events file"):
 * lines are appended to a buffer that is written with a synchronous write once it holds
 * {@link EVENT_BUFFER_BYTES}, when the thread next goes idle, and at `close`. The write blocks
 * the run's thread, which is the back-pressure: memory stays bounded whatever the run emits,
 * and no event is dropped. A failed write is kept (`error`) and later lines are not written.
 */
export class EventFileSink {
  readonly #fd: number;
  #chunks: string[] = [];
  #bytes = 0;
  #idleFlush: NodeJS.Immediate | undefined;
  #error: string | undefined;

  /** Opens `path` for appending (the caller made it empty). Throws when it cannot be opened. */
  constructor(path: string) {
    this.#fd = openSync(path, "a");
  }

  /** Why writing failed, once it has; later lines were not written. */
  get error(): string | undefined {
    return this.#error;
  }

  /** Appends one JSON Lines line (ending with its line feed). */
  write(line: string): void {
    if (this.#error !== undefined) return;
    this.#chunks.push(line);
    this.#bytes += line.length;
    if (this.#bytes >= EVENT_BUFFER_BYTES) this.flush();
    else this.#idleFlush ??= setImmediate(() => this.flush());
  }

  /** Writes what the buffer holds. */
  flush(): void {
    if (this.#idleFlush !== undefined) clearImmediate(this.#idleFlush);
    this.#idleFlush = undefined;
    if (this.#chunks.length === 0 || this.#error !== undefined) return;
    const bytes = Buffer.from(this.#chunks.join(""), "utf8");
    this.#chunks = [];
    this.#bytes = 0;
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.#fd, bytes, at);
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
    }
  }

  /** Writes what is left and closes the file. */
  close(): void {
    this.flush();
    try {
      closeSync(this.#fd);
    } catch (error) {
      this.#error ??= error instanceof Error ? error.message : String(error);
    }
  }
}
