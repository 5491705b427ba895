import type { InputBroker, InputRequest } from "@runvil/sdk";
import type { FromWorker } from "./messages";

interface PendingAsk {
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
}

/** The rejection text of an ask whose call was cancelled while it waited. */
export const ASK_WITHDRAWN_MESSAGE = "the question was withdrawn";

/**
 * The input broker a run in a worker thread is lent: each ask is posted to the main thread,
 * which asks the operator on the terminal and posts the answer (or the broker's failure) back.
 * An ask whose signal aborts rejects at once and tells the main thread to stop waiting.
 */
export class ProxyInputBroker implements InputBroker {
  readonly #post: (message: FromWorker) => void;
  readonly #pending = new Map<number, PendingAsk>();
  #nextId = 1;

  /** A broker posting its asks with `post` (the worker's parentPort.postMessage). */
  constructor(post: (message: FromWorker) => void) {
    this.#post = post;
  }

  /** Asks the main thread's broker; see the class description. */
  ask(request: InputRequest): Promise<string> {
    const { signal } = request;
    if (signal.aborted) return Promise.reject(withdrawn());
    const id = this.#nextId++;
    return new Promise<string>((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(id);
        this.#post({ type: "ask-withdrawn", id });
        reject(withdrawn());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (text) => {
          signal.removeEventListener("abort", onAbort);
          resolve(text);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#post(
        request.prompt === undefined
          ? { type: "ask", id }
          : { type: "ask", id, prompt: request.prompt },
      );
    });
  }

  /** Settles ask `id` with the operator's answer (an unknown id is ignored: it was withdrawn). */
  answer(id: number, text: string): void {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    pending?.resolve(text);
  }

  /** Fails ask `id` with the main thread broker's message. */
  fail(id: number, message: string): void {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    pending?.reject(new Error(message));
  }
}

function withdrawn(): Error {
  const error = new Error(ASK_WITHDRAWN_MESSAGE);
  error.name = "AbortError";
  return error;
}
