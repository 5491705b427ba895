import { describe, expect, it } from "vitest";
import { logMessageRuleBroken } from "./log-message";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("logMessageRuleBroken", () => {
  it("accepts single-line UTF-8 up to 256 characters", () => {
    expect(logMessageRuleBroken(bytes(""))).toBeUndefined();
    expect(logMessageRuleBroken(bytes("prepare started"))).toBeUndefined();
    expect(logMessageRuleBroken(bytes("é".repeat(256)))).toBeUndefined();
    expect(logMessageRuleBroken(bytes("😀".repeat(256)))).toBeUndefined();
    expect(logMessageRuleBroken(bytes("a\u00a0b\u2027c\u202a"))).toBeUndefined();
  });

  it("counts characters, not bytes", () => {
    expect(logMessageRuleBroken(bytes("x".repeat(257)))).toBe(
      "log message must be at most 256 characters",
    );
    expect(logMessageRuleBroken(bytes("é".repeat(257)))).toBe(
      "log message must be at most 256 characters",
    );
  });

  it.each([
    ["newline", "a\nb"],
    ["carriage return", "a\rb"],
    ["tab", "a\tb"],
    ["NUL", "a\0b"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["U+2028", "a\u2028b"],
    ["U+2029", "a\u2029b"],
  ])("refuses %s", (_name, text) => {
    expect(logMessageRuleBroken(bytes(text))).toBe(
      "log message must not contain newline or control characters",
    );
  });

  it("refuses invalid UTF-8 before length and control characters", () => {
    expect(logMessageRuleBroken(new Uint8Array([0xff]))).toBe("log message must be a UTF-8 string");
    expect(logMessageRuleBroken(new Uint8Array([0x61, 0xc3]))).toBe(
      "log message must be a UTF-8 string",
    );
    expect(logMessageRuleBroken(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(
      "log message must be a UTF-8 string",
    );
    expect(logMessageRuleBroken(new Uint8Array([0x0a, ...bytes("é".repeat(300)), 0xff]))).toBe(
      "log message must be a UTF-8 string",
    );
    expect(logMessageRuleBroken(bytes(`${"é".repeat(257)}\n`))).toBe(
      "log message must be at most 256 characters",
    );
  });
});
