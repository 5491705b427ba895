import { describe, expect, it } from "vitest";
import { checkFrontmatter } from "./frontmatter";
import { findFrontmatter } from "./frontmatter-fence";
import { Lines } from "./lines";
import type { Frontmatter } from "./types";

/** Checks the frontmatter made of `yaml` lines (line 1 is the opening `---`). */
function check(...yaml: string[]) {
  const found = findFrontmatter(new Lines(["---", ...yaml, "---", ""].join("\n")));
  if (!found.ok) throw new Error(found.error.message);
  return checkFrontmatter(found.fence);
}

const REQUIRED = ["name: word-count", "description: Counts words.", "runvil: 0"];

function frontmatterError(message: string, line: number) {
  return { ok: false, error: { kind: "Frontmatter", message, line } };
}

describe("checkFrontmatter", () => {
  it("reads the required keys and defaults the optional ones", () => {
    const expected: Frontmatter = {
      startLine: 1,
      endLine: 5,
      name: "word-count",
      description: "Counts words.",
      runvil: 0,
      uses: [],
      models: [],
      args: [],
    };
    expect(check(...REQUIRED)).toEqual({ ok: true, value: expected });
  });

  it("reads uses, models and args in the order written", () => {
    const result = check(
      ...REQUIRED,
      "uses: [web, acme/poop]",
      "models:",
      "  writer: {}",
      "  critic: { temperature: 0.2, stop: [a, b] }",
      "args:",
      "  topic: { description: What to write about, required: true }",
      "  tone: { default: calm }",
    );
    expect(result.ok && result.value.uses).toEqual([
      { text: "web", vendor: "runvil", packId: "web", fullName: "runvil/web", line: 5, column: 8 },
      {
        text: "acme/poop",
        vendor: "acme",
        packId: "poop",
        fullName: "acme/poop",
        line: 5,
        column: 13,
      },
    ]);
    expect(result.ok && result.value.models).toEqual([
      { label: "writer", settings: { model: [], stop: [], maxRounds: 20 }, line: 7 },
      {
        label: "critic",
        settings: { model: [], temperature: 0.2, stop: ["a", "b"], maxRounds: 20 },
        line: 8,
      },
    ]);
    expect(result.ok && result.value.args).toEqual([
      {
        name: "topic",
        description: "What to write about",
        required: true,
        default: undefined,
        line: 10,
      },
      { name: "tone", description: undefined, required: false, default: "calm", line: 11 },
    ]);
  });

  it("gives a YAML syntax error with its absolute line", () => {
    expect(check("name: x", "description: a: b", "runvil: 0")).toEqual(
      frontmatterError(
        "invalid frontmatter: invalid YAML: Nested mappings are not allowed in compact mappings (line 3)",
        3,
      ),
    );
    expect(check("name: x", "\tdescription: y")).toEqual(
      frontmatterError(
        "invalid frontmatter: invalid YAML: Tabs are not allowed as indentation (line 3)",
        3,
      ),
    );
  });

  it("refuses a key written twice, as YAML does", () => {
    expect(check(...REQUIRED, "name: again")).toEqual(
      frontmatterError("invalid frontmatter: invalid YAML: Map keys must be unique (line 5)", 5),
    );
  });

  it("refuses an unknown key, listing the known keys", () => {
    expect(check("name: x", "title: y", "description: z", "runvil: 0")).toEqual(
      frontmatterError(
        "invalid frontmatter: unknown key `title`; the known keys are name, description, runvil, uses, models, args, budget (line 3)",
        3,
      ),
    );
  });

  it("refuses a frontmatter that is not a mapping", () => {
    expect(check("- name", "- description")).toEqual(
      frontmatterError(
        "invalid frontmatter: the frontmatter must be a mapping of keys, such as `name: my-prompt`, found a list (line 2)",
        2,
      ),
    );
  });

  it("names the first missing required key", () => {
    expect(check()).toEqual(
      frontmatterError("invalid frontmatter: missing required key `name` (line 1)", 1),
    );
    expect(check("name: x", "runvil: 0")).toEqual(
      frontmatterError("invalid frontmatter: missing required key `description` (line 1)", 1),
    );
    expect(check("name: x", "description: y")).toEqual(
      frontmatterError("invalid frontmatter: missing required key `runvil` (line 1)", 1),
    );
  });

  it("wants name and description as non-empty strings", () => {
    expect(check("name: 42", "description: y", "runvil: 0")).toEqual(
      frontmatterError("invalid frontmatter: `name` must be a string, found a number (line 2)", 2),
    );
    expect(check("name: x", "description:", "runvil: 0")).toEqual(
      frontmatterError(
        "invalid frontmatter: `description` must be a string, found null (line 3)",
        3,
      ),
    );
    expect(check("name: '  '", "description: y", "runvil: 0")).toEqual(
      frontmatterError("invalid frontmatter: `name` must not be empty (line 2)", 2),
    );
  });

  it("wants runvil to be the number 0", () => {
    expect(check("name: x", "description: y", "runvil: 1")).toEqual(
      frontmatterError(
        "invalid frontmatter: `runvil` must be 0, the prompt format version this Runvil reads, found 1 (line 4)",
        4,
      ),
    );
    expect(check("name: x", "description: y", "runvil: '0'")).toEqual(
      frontmatterError(
        "invalid frontmatter: `runvil` must be the number 0 (the prompt format version), found a string (line 4)",
        4,
      ),
    );
  });

  it("resolves YAML aliases", () => {
    const result = check("name: &n shared", "description: *n", "runvil: 0");
    expect(result.ok && result.value.description).toBe("shared");
  });

  it("reads a __proto__ settings key as an unknown setting, touching no prototype", () => {
    const result = check(...REQUIRED, "models:", "  writer: { __proto__: 1 }");
    expect(!result.ok && result.error.message).toBe(
      "invalid frontmatter: `models.writer` has an unknown setting `__proto__`; the known settings are model, system, temperature, max_output_tokens, stop, max_rounds (line 6)",
    );
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).model).toBeUndefined();
  });
});
