/**
 * Maps a UTF-16 code unit so that comparing mapped units orders well-formed
 * strings by code point, which is the order of their UTF-8 bytes: surrogates
 * (U+D800-U+DFFF, the halves of code points above U+FFFF) move above
 * U+E000-U+FFFF.
 */
function codePointOrderUnit(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/**
 * Compares two well-formed strings by their UTF-8 bytes (negative, 0,
 * positive). JavaScript's default sort compares UTF-16 code units, which puts
 * U+E000-U+FFFF after the code points above U+FFFF; this puts them before, as
 * their bytes do.
 */
export function compareBytewise(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrderUnit(x) - codePointOrderUnit(y);
  }
  return a.length - b.length;
}

/** Sorts `paths` in place by compareBytewise and returns it. */
export function sortBytewise(paths: string[]): string[] {
  return paths.sort(compareBytewise);
}
