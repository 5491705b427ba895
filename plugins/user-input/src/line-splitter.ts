import { StringDecoder } from "node:string_decoder";

/**
 * Splits a stream of UTF-8 chunks into lines. A line ends at `\n`; one `\r` right before it is
 * dropped too (CRLF input). Everything else in a line is kept exactly: spaces, tabs, a lone `\r`.
 */
export class LineSplitter {
  readonly #decoder = new StringDecoder("utf8");
  #partial = "";

  /** Adds a chunk; returns the lines it completed, in order. */
  push(chunk: string | Uint8Array): string[] {
    const text = typeof chunk === "string" ? chunk : this.#decoder.write(chunk);
    return this.#take(text);
  }

  /** Ends the input; returns the unfinished last line, or undefined when there is none. */
  end(): string | undefined {
    const rest = this.#partial + this.#decoder.end();
    this.#partial = "";
    return rest === "" ? undefined : rest;
  }

  #take(text: string): string[] {
    const lines: string[] = [];
    const buffer = this.#partial + text;
    let start = 0;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const end = newline > start && buffer[newline - 1] === "\r" ? newline - 1 : newline;
      lines.push(buffer.slice(start, end));
      start = newline + 1;
      newline = buffer.indexOf("\n", start);
    }
    this.#partial = buffer.slice(start);
    return lines;
  }
}
