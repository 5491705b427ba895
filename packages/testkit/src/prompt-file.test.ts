import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScenarioFormatError } from "./format-error";
import { loadScenarioFile } from "./load-scenarios";

function scenarioDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "runvil-prompt-file-"));
  mkdirSync(join(dir, "prompts"));
  writeFileSync(join(dir, "prompts", "hello.md"), "---\nname: hello\n---\n# Hello\n");
  return dir;
}

function formatProblems(path: string): string[] {
  try {
    loadScenarioFile(path);
  } catch (error) {
    if (error instanceof ScenarioFormatError) return error.message.split("\n");
    throw error;
  }
  throw new Error("loaded without a format error");
}

describe("prompt_file", () => {
  it("reads the prompt from a file relative to the scenario file", () => {
    const dir = scenarioDir();
    const file = join(dir, "hello.yaml");
    writeFileSync(
      file,
      "cases:\n  - name: c\n    prompt_file: prompts/hello.md\n    expect: { result: hi }\n",
    );
    const [first] = loadScenarioFile(file).cases;
    expect(first?.prompt).toBe("---\nname: hello\n---\n# Hello\n");
    expect(first?.promptPath).toBe(join(dir, "prompts", "hello.md"));
  });

  it("names a prompt file that does not exist, with the key's line", () => {
    const dir = scenarioDir();
    const file = join(dir, "missing.yaml");
    writeFileSync(
      file,
      "cases:\n  - name: c\n    prompt_file: nope.md\n    expect: { result: hi }\n",
    );
    expect(formatProblems(file)).toContain(
      `${file}:3: cases[0].prompt_file (case "c"): cannot read nope.md: no such file`,
    );
  });

  it("refuses prompt and prompt_file together", () => {
    const dir = scenarioDir();
    const file = join(dir, "both.yaml");
    writeFileSync(
      file,
      "cases:\n  - name: c\n    prompt: p\n    prompt_file: prompts/hello.md\n    expect: { result: hi }\n",
    );
    expect(formatProblems(file)).toContain(
      `${file}:4: cases[0].prompt_file (case "c"): give either prompt or prompt_file, not both`,
    );
  });

  it("still needs prompt when there is no prompt_file", () => {
    const dir = scenarioDir();
    const file = join(dir, "none.yaml");
    writeFileSync(file, "cases:\n  - name: c\n    expect: { result: hi }\n");
    expect(formatProblems(file).join("\n")).toContain('missing required key "prompt"');
  });
});
