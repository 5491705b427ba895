import { describe, expect, it } from "vitest";
import { decodePromptInput, firstInvalidUtf8, firstLoneSurrogate } from "./decode";

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (value: string) => new TextEncoder().encode(value);

describe("decodePromptInput", () => {
  it("decodes UTF-8 bytes", () => {
    expect(decodePromptInput(utf8("---\ncafé ✓ 😀\n"))).toEqual({
      ok: true,
      text: "---\ncafé ✓ 😀\n",
    });
  });

  it("drops a leading byte order mark from bytes and from strings", () => {
    expect(decodePromptInput(bytes(0xef, 0xbb, 0xbf, 0x61))).toEqual({ ok: true, text: "a" });
    expect(decodePromptInput("\ufeffa")).toEqual({ ok: true, text: "a" });
  });

  it("keeps a byte order mark that is not at the start", () => {
    expect(decodePromptInput("a\ufeff")).toEqual({ ok: true, text: "a\ufeff" });
  });

  it("names the line of the first bad byte", () => {
    const input = new Uint8Array([...utf8("---\nname: x\n"), 0xe9, ...utf8("\n")]);
    expect(decodePromptInput(input)).toEqual({
      ok: false,
      error: {
        kind: "Encoding",
        message:
          "the prompt is not valid UTF-8: byte 0xE9 does not start a valid UTF-8 sequence (line 3)",
        line: 3,
      },
    });
  });

  it("counts CRLF as one line break when naming the line", () => {
    const input = new Uint8Array([...utf8("a\r\nb\r\n"), 0xff]);
    const result = decodePromptInput(input);
    expect(result.ok === false && result.error.line).toBe(3);
  });

  it("refuses a string with a lone surrogate, naming its line", () => {
    expect(decodePromptInput("ok\nbad \ud800 here")).toEqual({
      ok: false,
      error: {
        kind: "Encoding",
        message: "the prompt text is not valid Unicode: it holds a lone surrogate (line 2)",
        line: 2,
      },
    });
  });

  it("refuses input that is neither a string nor bytes", () => {
    expect(decodePromptInput(42)).toEqual({
      ok: false,
      error: {
        kind: "Encoding",
        message: "expected the prompt as a string or UTF-8 bytes, got a number",
      },
    });
    const nullResult = decodePromptInput(null);
    expect(nullResult.ok === false && nullResult.error.message).toBe(
      "expected the prompt as a string or UTF-8 bytes, got null",
    );
  });

  it("decodes empty input to empty text", () => {
    expect(decodePromptInput(new Uint8Array(0))).toEqual({ ok: true, text: "" });
    expect(decodePromptInput("")).toEqual({ ok: true, text: "" });
  });
});

describe("firstInvalidUtf8", () => {
  it("accepts every valid sequence length", () => {
    expect(firstInvalidUtf8(utf8("a é ✓ 😀 \u{10ffff}"))).toBe(-1);
  });

  it.each([
    ["a stray continuation byte", bytes(0x61, 0x80), 1],
    ["an overlong two-byte form", bytes(0xc0, 0xaf), 0],
    ["an overlong three-byte form", bytes(0xe0, 0x80, 0xaf), 0],
    ["an encoded surrogate", bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ["a code point past U+10FFFF", bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ["a sequence cut off at the end", bytes(0x61, 0x62, 0xe2, 0x9c), 2],
    ["a lead byte followed by ASCII", bytes(0xc3, 0x41), 0],
    ["a 0xFF byte", bytes(0x61, 0xff), 1],
  ])("finds %s", (_name, input, index) => {
    expect(firstInvalidUtf8(input)).toBe(index);
  });
});

describe("firstLoneSurrogate", () => {
  it("accepts surrogate pairs and finds lone halves", () => {
    expect(firstLoneSurrogate("😀")).toBe(-1);
    expect(firstLoneSurrogate("a\udc00")).toBe(1);
    expect(firstLoneSurrogate("ab\ud83d")).toBe(2);
    expect(firstLoneSurrogate("\ud83dx")).toBe(0);
  });
});
