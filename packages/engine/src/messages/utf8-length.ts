/**
 * The UTF-8 byte length of a JavaScript string, without encoding it: 1 byte below U+0080, 2
 * below U+0800, 4 for a surrogate pair, 3 otherwise (a lone surrogate encodes as U+FFFD, 3 bytes).
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // the pair's two UTF-16 units are 4 bytes
        i++;
      } else {
        bytes += 2;
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}
