/**
 * Quotes `text` the way the tools chapter's `{name:?}` placeholders show a value: in double
 * quotes, with `"` and `\` escaped, `\n`, `\r`, `\t` and `\0` written as such, and every other
 * control character (below U+0020, and U+007F) as `\u{hex}`. Everything else stays as it is,
 * so `rogue` reads `"rogue"`.
 */
export function debugQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code === 0) out += "\\0";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

/** A list of names as the chapter prints it: `["a", "b"]`, each quoted by {@link debugQuote}. */
export function debugList(names: readonly string[]): string {
  return `[${names.map(debugQuote).join(", ")}]`;
}

/**
 * Compares two strings by their UTF-8 bytes (code point order, which UTF-8 preserves; UTF-16
 * code unit order differs for characters above U+FFFF).
 */
export function compareBytewise(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xa = a.codePointAt(i) ?? x;
    const yb = b.codePointAt(i) ?? y;
    return xa < yb ? -1 : 1;
  }
  return a.length - b.length;
}

/** Sorts names bytewise (see {@link compareBytewise}) into a new array. */
export function sortNames(names: Iterable<string>): string[] {
  return [...names].sort(compareBytewise);
}
