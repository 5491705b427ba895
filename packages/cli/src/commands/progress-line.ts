import type { RunEvent } from "@runvil/engine";

const CLEAR = "\r\x1b[2K";

/**
 * The live progress line of `runvil run` on a terminal: the current section and the number of
 * effects so far, redrawn in place as events arrive, cleared at the end.
 */
export class ProgressLine {
  readonly #write: (text: string) => void;
  #section = "";
  #effects = 0;
  #shown = "";

  /** A progress line written with `write` (stderr). */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** Takes one run event and redraws the line when its text changed. */
  update(event: RunEvent): void {
    if (event.type === "store_op") this.#effects += 1;
    if (event.type === "section_entered" || event.type === "run_started") {
      this.#section = event.section;
    }
    const text = `running: ${this.#section} · ${this.#effects} effect${this.#effects === 1 ? "" : "s"}`;
    if (text === this.#shown) return;
    this.#shown = text;
    this.#write(`${CLEAR}${text}`);
  }

  /** Erases the line (nothing when none was drawn). */
  clear(): void {
    if (this.#shown === "") return;
    this.#shown = "";
    this.#write(CLEAR);
  }
}
