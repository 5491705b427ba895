import type { Readable, Writable } from "node:stream";
import type { InputBroker, InputRequest } from "@runvil/sdk";
import { LineSplitter } from "./line-splitter";

/** The rejection message of an ask once the operator's input has ended. */
export const WINDOW_CLOSED_MESSAGE = "the operator's window closed";

/** The rejection message of an ask whose request signal aborted before an answer came. */
export const QUESTION_WITHDRAWN_MESSAGE = "the question was withdrawn";

/** How a {@link LineInputBroker} reaches the operator. */
export interface LineInputBrokerOptions {
  /** Where the operator's lines come from, such as `process.stdin`. */
  readonly input: Readable;
  /** Where prompts are written, such as `process.stderr`; prompts are not written without it. */
  readonly output?: Writable;
  /** The prompt written before each wait whose request gives none (default: none). */
  readonly prompt?: string;
}

interface Waiter {
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
  readonly promptOpen: boolean;
}

/**
 * An input broker (`runvil/input-broker`) that reads the operator's answers as lines of a Node
 * Readable, such as the terminal. Each ask that has to wait writes its prompt (the request's, or
 * the default one) to `output` and resolves with the next line, without its line end (`\n` or
 * `\r\n`) and otherwise exactly as typed. Lines that arrive while nobody asks are kept for the
 * next asks, in order; concurrent asks are answered first come, first served.
 *
 * Once the input ends (or fails, or {@link LineInputBroker.close} is called), an unfinished last
 * line still answers one ask, and every other ask rejects with `the operator's window closed`.
 * An ask whose signal aborts rejects with an `AbortError` (`the question was withdrawn`) and ends
 * its open prompt line. The broker reads the input only while an ask waits, so an idle broker
 * does not keep the process alive.
 */
export class LineInputBroker implements InputBroker {
  readonly #input: Readable;
  readonly #output: Writable | undefined;
  readonly #prompt: string | undefined;
  readonly #splitter = new LineSplitter();
  readonly #lines: string[] = [];
  readonly #waiters: Waiter[] = [];
  #attached = false;
  #ended = false;
  #endCause: unknown;

  constructor(options: LineInputBrokerOptions) {
    this.#input = options.input;
    this.#output = options.output;
    this.#prompt = options.prompt;
  }

  /** Waits for the operator's next line (see the class description). */
  ask(request: InputRequest): Promise<string> {
    const { signal } = request;
    if (signal.aborted) return Promise.reject(withdrawn(signal));
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended) return Promise.reject(windowClosed(this.#endCause));
    return new Promise<string>((resolve, reject) => {
      const prompt = request.prompt ?? this.#prompt;
      const promptOpen = this.#output !== undefined && prompt !== undefined && prompt !== "";
      if (promptOpen) this.#output?.write(prompt);
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        promptOpen,
        onAbort: () => this.#withdraw(waiter),
      };
      signal.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#read();
    });
  }

  /**
   * Stops reading: every waiting ask, and every later one once the kept lines are used up,
   * rejects with `the operator's window closed`. The input stream itself is left open.
   */
  close(): void {
    this.#finish(undefined, false);
  }

  #read(): void {
    if (!this.#attached) {
      if (this.#input.readableEnded || this.#input.destroyed) {
        this.#finish(undefined, true);
        return;
      }
      this.#attached = true;
      this.#input.on("data", this.#onData);
      this.#input.on("end", this.#onEnd);
      this.#input.on("close", this.#onEnd);
      this.#input.on("error", this.#onError);
    }
    this.#input.resume();
  }

  readonly #onData = (chunk: string | Uint8Array): void => {
    for (const line of this.#splitter.push(chunk)) this.#deliver(line);
    if (this.#waiters.length === 0) this.#input.pause();
  };

  readonly #onEnd = (): void => {
    this.#finish(undefined, true);
  };

  readonly #onError = (error: unknown): void => {
    this.#finish(error, false);
  };

  #deliver(line: string): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) {
      this.#lines.push(line);
      return;
    }
    waiter.signal.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(line);
  }

  #withdraw(waiter: Waiter): void {
    const index = this.#waiters.indexOf(waiter);
    if (index === -1) return;
    this.#waiters.splice(index, 1);
    if (waiter.promptOpen) this.#output?.write("\n");
    if (this.#waiters.length === 0 && this.#attached && !this.#ended) this.#input.pause();
    waiter.reject(withdrawn(waiter.signal));
  }

  /** Ends the input: keeps an unfinished last line when `keepRest`, then fails every waiter. */
  #finish(cause: unknown, keepRest: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#endCause = cause;
    if (this.#attached) {
      this.#input.off("data", this.#onData);
      this.#input.off("end", this.#onEnd);
      this.#input.off("close", this.#onEnd);
      this.#input.off("error", this.#onError);
      this.#input.pause();
    }
    const rest = this.#splitter.end();
    if (keepRest && rest !== undefined) this.#deliver(rest);
    for (const waiter of this.#waiters.splice(0)) {
      waiter.signal.removeEventListener("abort", waiter.onAbort);
      waiter.reject(windowClosed(cause));
    }
  }
}

function windowClosed(cause: unknown): Error {
  return cause === undefined
    ? new Error(WINDOW_CLOSED_MESSAGE)
    : new Error(WINDOW_CLOSED_MESSAGE, { cause });
}

function withdrawn(signal: AbortSignal): Error {
  const error = new Error(QUESTION_WITHDRAWN_MESSAGE, { cause: signal.reason });
  error.name = "AbortError";
  return error;
}
