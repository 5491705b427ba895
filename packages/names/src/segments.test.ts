import { describe, expect, it } from "vitest";
import { REASON_BAD_CHARACTER, REASON_CONTROL_CHARACTER, REASON_EMPTY_SEGMENT } from "./reasons";
import { parseName } from "./segments";

function reasonOf(text: string): string | undefined {
  const result = parseName(text);
  return result.ok ? undefined : result.reason;
}

function segmentsOf(text: string): readonly string[] | undefined {
  const result = parseName(text);
  return result.ok ? result.value : undefined;
}

describe("parseName: one name form for Packs and tools", () => {
  it("reads a single segment and a two-segment name", () => {
    expect(segmentsOf("web")).toEqual(["web"]);
    expect(segmentsOf("web/fetch")).toEqual(["web", "fetch"]);
  });

  it("reads any number of segments", () => {
    expect(segmentsOf("a/b/c/d/e")).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("accepts a segment mixing letters, digits, '-', '_', '.'", () => {
    expect(segmentsOf("user-input")).toEqual(["user-input"]);
    expect(segmentsOf("a-b_c.d9")).toEqual(["a-b_c.d9"]);
  });

  it("has no rule about a segment's first or last character", () => {
    for (const segment of ["1", "-x", "_", ".", "..", "x-", "x.", "9lives", "---", "_._"]) {
      expect(segmentsOf(segment)).toEqual([segment]);
    }
    expect(segmentsOf("./..")).toEqual([".", ".."]);
  });

  it("has no length limit on a name or a segment", () => {
    const long = "a".repeat(100_000);
    expect(segmentsOf(long)).toEqual([long]);
    expect(segmentsOf(`${long}/${long}`)).toEqual([long, long]);
  });

  it("reads back exactly as written, joined by '/'", () => {
    for (const text of ["web", "web/fetch", "a/b.c/-d", "./.."]) {
      expect(segmentsOf(text)?.join("/")).toBe(text);
    }
  });

  it("does not normalize: no trimming and no case folding", () => {
    expect(reasonOf(" web")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web ")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("Web")).toBe(REASON_BAD_CHARACTER);
  });
});

describe("parseName: segments must not be empty", () => {
  it("rejects the empty name", () => {
    expect(reasonOf("")).toBe(REASON_EMPTY_SEGMENT);
  });

  it("rejects a leading, trailing, or doubled '/'", () => {
    expect(reasonOf("/web")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("web/")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("acme//web")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("/")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("//")).toBe(REASON_EMPTY_SEGMENT);
  });
});

describe("parseName: control characters", () => {
  it("rejects a tab, a newline, and DEL with the control-character reason", () => {
    expect(reasonOf("we\tb")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("web\n")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("we\u007fb")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("\u0000")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("\r")).toBe(REASON_CONTROL_CHARACTER);
  });

  it("covers every code below 0x20 and 0x7F", () => {
    for (let code = 0; code < 0x20; code++) {
      expect(reasonOf(`a${String.fromCharCode(code)}`)).toBe(REASON_CONTROL_CHARACTER);
    }
    expect(reasonOf(`a${String.fromCharCode(0x7f)}`)).toBe(REASON_CONTROL_CHARACTER);
  });

  it("gives C1 controls (U+0080..U+009F) the character-set reason: they are not ASCII", () => {
    expect(reasonOf("a\u0085")).toBe(REASON_BAD_CHARACTER);
  });
});

describe("parseName: the character set", () => {
  it("accepts exactly a-z, 0-9, '-', '_', '.' among the printable ASCII", () => {
    const allowed = new Set("abcdefghijklmnopqrstuvwxyz0123456789-_.");
    for (let code = 0x20; code < 0x7f; code++) {
      const char = String.fromCharCode(code);
      if (char === "/") continue;
      expect(reasonOf(`a${char}`)).toBe(allowed.has(char) ? undefined : REASON_BAD_CHARACTER);
    }
  });

  it("rejects an uppercase letter in any segment", () => {
    expect(reasonOf("Web")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/Fetch")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("a/b/C")).toBe(REASON_BAD_CHARACTER);
  });

  it("rejects an @ version pin, a space, and ':'", () => {
    expect(reasonOf("web@1.0")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web fetch")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web:fetch")).toBe(REASON_BAD_CHARACTER);
  });

  it("rejects non-ASCII letters", () => {
    expect(reasonOf("café")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("ｗｅｂ")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/\u{1f600}")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("\ufffd")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("a\u00a0b")).toBe(REASON_BAD_CHARACTER);
  });

  it("does not treat '-', '_', '.' as interchangeable", () => {
    const names = ["user-input", "user_input", "user.input"];
    const parsed = names.map((name) => segmentsOf(name)?.[0]);
    expect(new Set(parsed).size).toBe(3);
  });
});

describe("parseName: the first failure from the left decides", () => {
  it("gives Web/ the character-set reason, not the empty-segment reason", () => {
    expect(reasonOf("Web/")).toBe(REASON_BAD_CHARACTER);
  });

  it("gives /Web the empty-segment reason, its empty first segment failing first", () => {
    expect(reasonOf("/Web")).toBe(REASON_EMPTY_SEGMENT);
  });

  it("gives web//X the empty-segment reason", () => {
    expect(reasonOf("web//X")).toBe(REASON_EMPTY_SEGMENT);
  });

  it("checks the characters within a segment from left to right", () => {
    expect(reasonOf("a\tB")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("aB\t")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("é\n")).toBe(REASON_BAD_CHARACTER);
  });

  it("checks segments from left to right", () => {
    expect(reasonOf("we\tb/X")).toBe(REASON_CONTROL_CHARACTER);
    expect(reasonOf("X/we\tb")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("ok/\t/")).toBe(REASON_CONTROL_CHARACTER);
  });
});
