import { describe, expect, it } from "vitest";
import { checkModelId } from "./model-id";
import { MODEL_ID_GRAMMAR, REASON_MODEL_ID } from "./reasons";

function isValid(text: string): boolean {
  return checkModelId(text).ok;
}

describe("checkModelId", () => {
  it("accepts the ids providers use", () => {
    for (const id of [
      "claude-sonnet-4-6",
      "scripted-model",
      "gpt-4.1-mini",
      "llama3.1:8b",
      "meta-llama/Llama-3.3-70B-Instruct",
      "claude-3-5-sonnet@20240620",
      "o3",
      "4o",
      "a+b_c",
    ]) {
      expect(checkModelId(id)).toEqual({ ok: true, value: id });
    }
  });

  it("needs a letter or digit first", () => {
    for (const id of ["-a", ".a", "_a", ":a", "/a", "@a", "+a", " a"]) {
      expect(checkModelId(id)).toEqual({ ok: false, reason: REASON_MODEL_ID });
    }
  });

  it("refuses spaces, control characters and other punctuation anywhere", () => {
    for (const id of ["gpt 4", "a\tb", "a\nb", "a\u007fb", "a#b", "a?b", "a*b", "a,b", "é"]) {
      expect(isValid(id)).toBe(false);
    }
  });

  it("accepts 1 to 128 characters", () => {
    expect(isValid("a")).toBe(true);
    expect(isValid("a".repeat(128))).toBe(true);
    expect(isValid("a".repeat(129))).toBe(false);
    expect(isValid("")).toBe(false);
  });

  it("names the grammar in its reason", () => {
    expect(REASON_MODEL_ID).toBe(`expected ${MODEL_ID_GRAMMAR}`);
    expect(MODEL_ID_GRAMMAR).toBe("[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}");
  });
});
