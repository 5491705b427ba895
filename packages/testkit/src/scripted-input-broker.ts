import type { InputBroker, InputRequest } from "@runvil/sdk";
import type { OperatorAnswer } from "./scenario-types";

/** The message a held wait rejects with once its signal aborts. */
export const HELD_WAIT_ENDED = "the wait for the operator ended before an answer";

/**
 * The operator of a scenario case (`runvil/input-broker`): answers each ask with the case's
 * next `operator` entry, in order. A text answers; `fail: msg` rejects with `Error(msg)`;
 * `hold: true` never answers: the wait stays pending until the request's signal aborts (the
 * run was cancelled or ended), then rejects with {@link HELD_WAIT_ENDED}.
 *
 * An ask with no entry left rejects, and {@link ranOut} keeps
 * `the scenario scripts no operator answer for ask {n}` so the case fails with it even when
 * the run's outcome matches. An ask whose signal is already aborted rejects at once and uses
 * no entry (it is not counted).
 */
export class ScriptedInputBroker implements InputBroker {
  readonly #answers: readonly OperatorAnswer[];
  readonly #prompts: (string | undefined)[] = [];
  #ranOut: string | undefined;

  /** A broker scripted by a case's `operator` list. */
  constructor(answers: readonly OperatorAnswer[]) {
    this.#answers = answers;
  }

  /** How many asks were made so far (each used one entry, or ran out). */
  get askCount(): number {
    return this.#prompts.length;
  }

  /** The prompt text of each ask so far, in order (undefined for an ask without one). */
  get prompts(): readonly (string | undefined)[] {
    return this.#prompts;
  }

  /** How many operator entries are still unused. */
  get remaining(): number {
    return Math.max(0, this.#answers.length - this.#prompts.length);
  }

  /** The first problem that must fail the case (an ask without an answer), or undefined. */
  get ranOut(): string | undefined {
    return this.#ranOut;
  }

  /** Answers the next ask with the next scripted entry. */
  ask(request: InputRequest): Promise<string> {
    if (request.signal.aborted) return Promise.reject(new Error(HELD_WAIT_ENDED));
    this.#prompts.push(request.prompt);
    const ask = this.#prompts.length;
    const entry = this.#answers[ask - 1];
    if (entry === undefined) {
      const message = `the scenario scripts no operator answer for ask ${ask}`;
      this.#ranOut ??= message;
      return Promise.reject(new Error(message));
    }
    switch (entry.kind) {
      case "answer":
        return Promise.resolve(entry.text);
      case "fail":
        return Promise.reject(new Error(entry.message));
      case "hold":
        return new Promise<string>((_resolve, reject) => {
          request.signal.addEventListener("abort", () => reject(new Error(HELD_WAIT_ENDED)), {
            once: true,
          });
        });
    }
  }
}
