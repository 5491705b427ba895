import type { ModelRoundEffectRequest } from "@runvil/protocol";
import type { ModelRoundProgress } from "@runvil/sdk";

/**
 * The model part of `runvil run`'s progress line: `writer round 2 · 153 tokens` while a reply
 * streams, `writer round 2 · retry 1 in 2.0 s (rate limited (429))` while a provider waits to
 * retry, and nothing once no round is open. Several rounds open at once (tasks) show the last
 * one that reported.
 */
export class ModelProgress {
  readonly #open = new Map<string, string>();
  #last: string | undefined;

  /** The text (`""` when no round is open). */
  get text(): string {
    return this.#last === undefined ? "" : (this.#open.get(this.#last) ?? "");
  }

  /** A round started. */
  started(round: ModelRoundEffectRequest): void {
    this.#set(round.effect, `${round.role} round ${round.turn}`);
  }

  /** A report of an open round. */
  progress(round: ModelRoundEffectRequest, progress: ModelRoundProgress): void {
    const head = `${round.role} round ${round.turn}`;
    if (progress.type === "output") {
      this.#set(
        round.effect,
        `${head} · ${progress.outputTokens} ${progress.outputTokens === 1 ? "token" : "tokens"}`,
      );
    } else if (progress.type === "retry") {
      this.#set(
        round.effect,
        `${head} · retry ${progress.attempt} in ${(progress.delayMs / 1000).toFixed(1)} s (${progress.reason})`,
      );
    }
  }

  /** The round settled. */
  ended(round: ModelRoundEffectRequest): void {
    this.#open.delete(round.effect);
    if (this.#last === round.effect) this.#last = [...this.#open.keys()].at(-1);
  }

  #set(effect: string, text: string): void {
    this.#open.set(effect, text);
    this.#last = effect;
  }
}
