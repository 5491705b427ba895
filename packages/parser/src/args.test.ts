import { describe, expect, it } from "vitest";
import { checkYaml, REQUIRED_KEYS } from "./test-support";

function argsOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.args;
}

function messageOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (result.ok) throw new Error("expected an error");
  return result.error.message;
}

describe("args:", () => {
  it("reads each arg's settings", () => {
    expect(
      argsOf(
        "args:",
        "  topic:",
        "    description: What to write about",
        "    required: true",
        "  limit: { default: { words: 300, tags: [a] } }",
        "  empty: { default: null }",
        "  plain: {}",
      ),
    ).toEqual([
      {
        name: "topic",
        description: "What to write about",
        required: true,
        default: undefined,
        line: 6,
      },
      {
        name: "limit",
        description: undefined,
        required: false,
        default: { words: 300, tags: ["a"] },
        line: 9,
      },
      { name: "empty", description: undefined, required: false, default: null, line: 10 },
      { name: "plain", description: undefined, required: false, default: undefined, line: 11 },
    ]);
  });

  it("checks arg names with the alias grammar", () => {
    expect(messageOf("args:", "  my topic: {}")).toBe(
      'invalid frontmatter: `args` arg name: invalid alias "my topic": expected [A-Za-z][A-Za-z0-9_-]{0,63} (line 6)',
    );
  });

  it("checks each setting's type", () => {
    expect(messageOf("args:", "  topic: { description: 3 }")).toBe(
      "invalid frontmatter: `args.topic.description` must be a string, found a number (line 6)",
    );
    expect(messageOf("args:", "  topic:", "    required: 'yes'")).toBe(
      "invalid frontmatter: `args.topic.required` must be a boolean, found a string (line 7)",
    );
  });

  it("refuses unknown settings, listing the known ones", () => {
    expect(messageOf("args:", "  topic:", "    type: string")).toBe(
      "invalid frontmatter: `args.topic` has an unknown setting `type`; the known settings are description, required, default (line 7)",
    );
  });

  it("refuses an arg that is required and has a default", () => {
    expect(messageOf("args:", "  topic:", "    required: true", "    default: x")).toBe(
      "invalid frontmatter: `args.topic` is required and also has a default; drop one of them (line 7)",
    );
  });

  it("wants args: to be a mapping and each arg a settings mapping", () => {
    expect(messageOf("args: [topic]")).toBe(
      "invalid frontmatter: `args` must be a mapping of arg names to settings, such as `args: { topic: { required: true } }`, found a list (line 5)",
    );
    expect(messageOf("args:", "  topic:")).toBe(
      "invalid frontmatter: `args.topic` must be a settings mapping, found null; write `topic: {}` for no settings (line 6)",
    );
  });
});
