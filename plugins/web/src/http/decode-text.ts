import { TextDecoder } from "node:util";

/**
 * Decodes body bytes as text in `charset` (a WHATWG encoding label), falling back to UTF-8 for
 * an unknown label. A leading byte order mark is dropped; malformed bytes become U+FFFD.
 */
export function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  return decoderFor(charset).decode(bytes);
}

function decoderFor(charset: string | undefined): TextDecoder {
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset);
    } catch {
      // An unknown label: read the body as UTF-8, the web's default.
    }
  }
  return new TextDecoder("utf-8");
}

/** How many leading bytes of an HTML page are searched for a `<meta charset>` declaration. */
const META_SCAN_BYTES = 2048;

/**
 * The charset an HTML page declares in a `<meta charset="...">` or
 * `<meta http-equiv="Content-Type" content="...; charset=...">` near its start, if any.
 */
export function sniffHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, META_SCAN_BYTES));
  const match = /<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
}

/**
 * Whether bytes of an unlabelled body look like text: valid UTF-8 (a BOM allowed) with no NUL
 * and no other control character than tab, line feed, form feed and carriage return.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) {
      return false;
    }
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Whether text of an unlabelled body starts like an HTML document. */
export function looksLikeHtml(text: string): boolean {
  return /^\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text);
}
