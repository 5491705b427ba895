/**
 * The LEB128 integers and names of the WebAssembly binary format, for the modules the runtime
 * writes (vm/limit-allocator-wasm.ts) and rewrites (shared-memory.ts).
 */

/** Unsigned LEB128 of a u32 (`value >>> 0`). */
export function leb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 of an i32 (`value | 0`), as `i32.const` takes it. */
export function sleb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/**
 * Reads an unsigned LEB128 at `at`: [value, offset after it]. A number cut off by the end of
 * `bytes` ends there (the offset is then `bytes.length`), so a caller checks lengths against it.
 */
export function readLeb(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let cursor = at;
  for (;;) {
    const byte = bytes[cursor++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0 || cursor >= bytes.length) return [value, cursor];
  }
}

/** A length-prefixed name (ASCII only: one byte a character). */
export function wasmName(text: string): number[] {
  return [...leb(text.length), ...Array.from(text, (char) => char.charCodeAt(0))];
}
