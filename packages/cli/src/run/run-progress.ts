import type { ModelRoundEffectRequest, ModelRoundOutput, RunEvent } from "@runvil/protocol";
import { ModelProgress } from "./model-progress";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The text of `runvil run`'s progress line, kept up to date from the run's events and effects:
 * `running: {section} · {n} effects` (store operations and catalog tool calls, counted when
 * issued), plus ` · {k} tool calls` once a tool was called, plus the open model round
 * (ModelProgress: ` · writer round 2 · 153 tokens`, or its retry). The tool calls are every
 * `tool_call_started` event, the count `runvil runs` gives (journal.md "What a tool call count
 * counts"): catalog tools, local tools and the model's task built-ins, by a script or a model.
 */
export class RunProgress {
  #section = "";
  #effects = 0;
  #toolCalls = 0;
  #text = "";
  readonly #model = new ModelProgress();

  /** The current text (`""` before anything happened). */
  get text(): string {
    return this.#text;
  }

  /** Takes one run event; true when the text changed. */
  event(event: RunEvent): boolean {
    if (event.type === "tool_call_started") {
      this.#toolCalls += 1;
      return this.#render();
    }
    if (event.type !== "section_entered" && event.type !== "run_started") return false;
    this.#section = event.section;
    return this.#render();
  }

  /** Counts a store operation; true when the text changed. */
  storeOp(): boolean {
    this.#effects += 1;
    return this.#render();
  }

  /**
   * Counts a catalog tool call's effect; true when the text changed. The call itself is counted
   * from its `tool_call_started` event, as every other tool call is.
   */
  toolEffect(): boolean {
    this.#effects += 1;
    return this.#render();
  }

  /**
   * Runs a model round through `perform` with a progress listener that shows its output so far
   * and its retries (and passes them on to the round's own listener); `show` gets each change.
   */
  async modelRound(
    round: ModelRoundEffectRequest,
    perform: (round: ModelRoundEffectRequest) => Promise<ModelRoundOutput>,
    show: (changed: boolean) => void,
  ): Promise<ModelRoundOutput> {
    this.#model.started(round);
    show(this.#render());
    const own = round.onProgress;
    try {
      return await perform({
        ...round,
        onProgress: (progress) => {
          own?.(progress);
          this.#model.progress(round, progress);
          show(this.#render());
        },
      });
    } finally {
      this.#model.ended(round);
      show(this.#render());
    }
  }

  #render(): boolean {
    let text = `running: ${this.#section} · ${plural(this.#effects, "effect")}`;
    if (this.#toolCalls > 0) text += ` · ${plural(this.#toolCalls, "tool call")}`;
    const model = this.#model.text;
    if (model !== "") text += ` · ${model}`;
    if (text === this.#text) return false;
    this.#text = text;
    return true;
  }
}
