import { describe, expect, it } from "vitest";
import { checkYaml, REQUIRED_KEYS } from "./test-support";

function errorOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

describe("models:", () => {
  it("maps role labels to settings, in order", () => {
    const result = checkYaml(
      ...REQUIRED_KEYS,
      "models:",
      "  writer: {}",
      "  Critic-2: { temperature: 0 }",
    );
    expect(result.ok && result.value.models).toEqual([
      { label: "writer", settings: {}, line: 6 },
      { label: "Critic-2", settings: { temperature: 0 }, line: 7 },
    ]);
  });

  it("checks role labels with the alias grammar", () => {
    expect(errorOf("models:", "  2writer: {}")).toEqual({
      kind: "Frontmatter",
      message:
        'invalid frontmatter: `models` role label: invalid alias "2writer": expected [A-Za-z][A-Za-z0-9_-]{0,63} (line 6)',
      line: 6,
    });
    expect(errorOf("models:", `  ${"a".repeat(65)}: {}`).message).toContain(
      `invalid alias "${"a".repeat(65)}"`,
    );
  });

  it("wants role labels to be strings", () => {
    expect(errorOf("models:", "  7: {}").message).toBe(
      "invalid frontmatter: `models` role labels must be strings, found a number (line 6)",
    );
  });

  it("wants a settings mapping for each role", () => {
    expect(errorOf("models:", "  writer:")).toEqual({
      kind: "Frontmatter",
      message:
        "invalid frontmatter: `models.writer` must be a settings mapping, found null; write `writer: {}` for no settings (line 6)",
      line: 6,
    });
    expect(errorOf("models:", "  writer: [a]").message).toBe(
      "invalid frontmatter: `models.writer` must be a settings mapping, found a list; write `writer: {}` for no settings (line 6)",
    );
  });

  it("wants models: to be a mapping", () => {
    expect(errorOf("models: [writer]").message).toBe(
      "invalid frontmatter: `models` must be a mapping of role labels to settings, such as `models: { writer: {} }`, found a list (line 5)",
    );
  });

  it("wants settings to be JSON data", () => {
    expect(errorOf("models:", "  writer: { temperature: .inf }").message).toBe(
      "invalid frontmatter: `models.writer.temperature` must be JSON data, found Infinity (line 6)",
    );
    expect(errorOf("models:", "  writer:", "    blob: !!binary aGVsbG8=").message).toBe(
      "invalid frontmatter: `models.writer.blob` must be JSON data, found binary data (line 7)",
    );
    expect(errorOf("models:", "  writer:", "    1: x").message).toBe(
      "invalid frontmatter: the keys of `models.writer` must be strings, found a number (line 7)",
    );
  });

  it("stops an alias cycle instead of looping", () => {
    expect(errorOf("models:", "  writer: &w { again: *w }").message).toMatch(
      /^invalid frontmatter: `models\.writer(\.again)+` is nested more than 64 levels deep \(line 6\)$/,
    );
  });
});
