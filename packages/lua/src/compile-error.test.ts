import { describe, expect, it } from "vitest";
import { formatCompileError, LuaCompileError } from "./compile-error";

const DIAGNOSTIC = `[string "line 14"]:2: unexpected symbol near 'return'`;
const MESSAGE =
  "lua compilation error at section `Check` epilog (line 14): " +
  `[string "line 14"]:2: unexpected symbol near 'return'`;

describe("formatCompileError", () => {
  it("formats the spec's broken-check epilog", () => {
    expect(formatCompileError("section `Check` epilog", 14, DIAGNOSTIC)).toBe(MESSAGE);
  });

  it("keeps the location and diagnostic unchanged", () => {
    expect(
      formatCompileError(
        "section `Shared Research Helper Functions` (line 1200) prologue",
        1203,
        `[string "line 1203"]:1: unexpected symbol near <eof>`,
      ),
    ).toBe(
      "lua compilation error at section `Shared Research Helper Functions` (line 1200) " +
        `prologue (line 1203): [string "line 1203"]:1: unexpected symbol near <eof>`,
    );
  });
});

describe("LuaCompileError", () => {
  it("carries the fields, the block's source, and the formatted message", () => {
    const error = new LuaCompileError(
      "section `Check` epilog",
      14,
      DIAGNOSTIC,
      "local secret =\nreturn secret\n",
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("LuaCompileError");
    expect(error.message).toBe(MESSAGE);
    expect(error.location).toBe("section `Check` epilog");
    expect(error.sourceLine).toBe(14);
    expect(error.diagnostic).toBe(DIAGNOSTIC);
    expect(error.source).toBe("local secret =\nreturn secret\n");
    expect(String(error)).toBe(`LuaCompileError: ${MESSAGE}`);
  });

  it("accepts one object with the same fields", () => {
    const error = new LuaCompileError({
      location: "section `Private section` prologue",
      sourceLine: 11,
      diagnostic: `[string "line 11"]:1: unexpected symbol near <eof>`,
      source: "private_payload =",
    });
    expect(error.message).toBe(
      "lua compilation error at section `Private section` prologue (line 11): " +
        `[string "line 11"]:1: unexpected symbol near <eof>`,
    );
    expect(error.source).toBe("private_payload =");
  });
});
