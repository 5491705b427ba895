import { describe, expect, it } from "vitest";
import { decodeText, looksLikeHtml, looksLikeText, sniffHtmlCharset } from "./decode-text";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("decodeText", () => {
  it("decodes UTF-8 by default and drops a byte order mark", () => {
    expect(decodeText(utf8("\uFEFFcaf\u00e9"), undefined)).toBe("caf\u00e9");
  });

  it("decodes a declared charset", () => {
    expect(decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), "iso-8859-1")).toBe("caf\u00e9");
  });

  it("falls back to UTF-8 for an unknown charset", () => {
    expect(decodeText(utf8("\u00e9t\u00e9"), "no-such-charset")).toBe("\u00e9t\u00e9");
  });

  it("replaces malformed bytes with U+FFFD", () => {
    expect(decodeText(Uint8Array.from([0x61, 0xff, 0x62]), "utf-8")).toBe("a\uFFFDb");
  });
});

describe("sniffHtmlCharset", () => {
  it("reads <meta charset> and the http-equiv form", () => {
    expect(sniffHtmlCharset(utf8('<head><meta charset="Shift_JIS">'))).toBe("shift_jis");
    expect(
      sniffHtmlCharset(
        utf8('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'),
      ),
    ).toBe("windows-1251");
  });

  it("finds nothing without a declaration or past the first 2048 bytes", () => {
    expect(sniffHtmlCharset(utf8("<p>hi</p>"))).toBeUndefined();
    expect(sniffHtmlCharset(utf8(`${" ".repeat(2048)}<meta charset="utf-8">`))).toBeUndefined();
  });
});

describe("looksLikeText / looksLikeHtml", () => {
  it("accepts UTF-8 text with tabs and line breaks", () => {
    expect(looksLikeText(utf8("a\tb\r\nc\f\u00e9"))).toBe(true);
  });

  it("refuses NUL, other control bytes and invalid UTF-8", () => {
    expect(looksLikeText(Uint8Array.from([0x61, 0x00]))).toBe(false);
    expect(looksLikeText(Uint8Array.from([0x61, 0x1b]))).toBe(false);
    expect(looksLikeText(Uint8Array.from([0x61, 0xc3]))).toBe(false);
  });

  it("recognises the start of an HTML document", () => {
    expect(looksLikeHtml("\n <!DOCTYPE html><p>x")).toBe(true);
    expect(looksLikeHtml("<html lang=en>")).toBe(true);
    expect(looksLikeHtml("<note>xml</note>")).toBe(false);
    expect(looksLikeHtml("plain <html> later")).toBe(false);
  });
});
