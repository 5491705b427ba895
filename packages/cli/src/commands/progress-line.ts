const CLEAR = "\r\x1b[2K";

/**
 * The live progress line of `runvil run` on a terminal: a text redrawn in place on stderr, and
 * erased at the end (or before the operator is asked something).
 */
export class ProgressLine {
  readonly #write: (text: string) => void;
  #shown = "";

  /** A progress line written with `write` (stderr). */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** Draws `text` in place of the current line (nothing when it is already shown). */
  show(text: string): void {
    if (text === this.#shown) return;
    this.#shown = text;
    this.#write(`${CLEAR}${text}`);
  }

  /** Erases the line (nothing when none is drawn). */
  clear(): void {
    if (this.#shown === "") return;
    this.#shown = "";
    this.#write(CLEAR);
  }
}
