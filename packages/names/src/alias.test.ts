import { describe, expect, it } from "vitest";
import { checkAlias, invalidAliasMessage } from "./alias";
import { REASON_ALIAS } from "./reasons";

function isValid(text: string): boolean {
  return checkAlias(text).ok;
}

describe("checkAlias", () => {
  it("accepts local tool aliases and role labels from the chapter", () => {
    for (const alias of ["grab", "decide", "helper", "writer", "web_search", "echo", "rogue"]) {
      expect(checkAlias(alias)).toEqual({ ok: true, value: alias });
    }
  });

  it("accepts letters of either case, digits, '_' and '-' after a letter", () => {
    for (const alias of ["A", "z", "Grab", "a1", "a_b-C9", "a-", "a_", "X--__"]) {
      expect(isValid(alias)).toBe(true);
    }
  });

  it("needs a letter first", () => {
    for (const alias of ["1a", "_a", "-a", ".a", " a"]) {
      expect(checkAlias(alias)).toEqual({ ok: false, reason: REASON_ALIAS });
    }
  });

  it("accepts 1 to 64 characters", () => {
    expect(isValid("a")).toBe(true);
    expect(isValid("a".repeat(64))).toBe(true);
    expect(isValid("")).toBe(false);
    expect(isValid("a".repeat(65))).toBe(false);
  });

  it("refuses a tool id: '/' is outside the grammar", () => {
    expect(isValid("web/fetch")).toBe(false);
  });

  it("refuses '.', spaces, control characters and non-ASCII letters", () => {
    for (const alias of ["a.b", "a b", "a\tb", "café", "aé", "a\u{1f600}", "grab "]) {
      expect(checkAlias(alias)).toEqual({ ok: false, reason: REASON_ALIAS });
    }
  });

  it("accepts exactly [A-Za-z0-9_-] after the first letter among printable ASCII", () => {
    const allowed = /[A-Za-z0-9_-]/;
    for (let code = 0x20; code < 0x7f; code++) {
      const char = String.fromCharCode(code);
      expect(isValid(`a${char}`)).toBe(allowed.test(char));
    }
  });
});

describe("invalidAliasMessage", () => {
  it("quotes the alias and gives the grammar", () => {
    expect(invalidAliasMessage("web/fetch")).toBe(
      'invalid alias "web/fetch": expected [A-Za-z][A-Za-z0-9_-]{0,63}',
    );
    expect(invalidAliasMessage("")).toBe('invalid alias "": expected [A-Za-z][A-Za-z0-9_-]{0,63}');
  });
});
