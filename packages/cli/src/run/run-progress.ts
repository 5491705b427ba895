import type { RunEvent } from "@runvil/protocol";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The text of `runvil run`'s progress line, kept up to date from the run's events and effects:
 * `running: {section} · {n} effects`, plus ` · {k} tool calls` once a tool was called (tool
 * calls are effects too, counted when they start).
 */
export class RunProgress {
  #section = "";
  #effects = 0;
  #toolCalls = 0;
  #text = "";

  /** The current text (`""` before anything happened). */
  get text(): string {
    return this.#text;
  }

  /** Takes one run event; true when the text changed. */
  event(event: RunEvent): boolean {
    if (event.type !== "section_entered" && event.type !== "run_started") return false;
    this.#section = event.section;
    return this.#render();
  }

  /** Counts a store operation; true when the text changed. */
  storeOp(): boolean {
    this.#effects += 1;
    return this.#render();
  }

  /** Counts a tool call (an effect too); true when the text changed. */
  toolCall(): boolean {
    this.#effects += 1;
    this.#toolCalls += 1;
    return this.#render();
  }

  #render(): boolean {
    let text = `running: ${this.#section} · ${plural(this.#effects, "effect")}`;
    if (this.#toolCalls > 0) text += ` · ${plural(this.#toolCalls, "tool call")}`;
    if (text === this.#text) return false;
    this.#text = text;
    return true;
  }
}
