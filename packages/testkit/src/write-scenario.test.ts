import { describe, expect, it } from "vitest";
import { ScenarioFormatError } from "./format-error";
import { loadScenarioFile } from "./load-scenarios";
import { addScenarioCase, ScenarioWriteError } from "./write-scenario";

const PROMPT =
  "---\nname: t\ndescription: t\nrunvil: 0\n---\n\n# T\n\n## Main\n\n```lua\nreturn args\n```\n";

describe("addScenarioCase", () => {
  it("writes a new file whose case loads back exactly, the prompt as a literal block", () => {
    const text = addScenarioCase(
      undefined,
      {
        name: "recorded",
        prompt: PROMPT,
        args: "hi  ",
        run: { seed: "18446744073709551615" },
        expect: { result: "hi  " },
      },
      "/tmp/x.yaml",
    );
    expect(text).toContain("    prompt: |\n      ---\n      name: t\n");
    const [only] = loadScenarioFile({ text, path: "/tmp/x.yaml" }).cases;
    expect(only).toMatchObject({
      name: "recorded",
      prompt: PROMPT,
      args: "hi  ",
      run: { seed: "18446744073709551615" },
    });
    expect(only?.expect.result).toBe("hi  ");
  });

  it("appends to an existing file and keeps its comments", () => {
    const existing = `# kept\ncases:\n  - name: first # the first\n    prompt: |\n${PROMPT.replace(/^/gm, "      ")}\n    expect: { result: "" }\n`;
    const text = addScenarioCase(
      existing,
      { name: "second", prompt: PROMPT, expect: { result: "" } },
      "/tmp/x.yaml",
    );
    expect(text.startsWith("# kept\ncases:\n  - name: first # the first\n")).toBe(true);
    expect(loadScenarioFile({ text, path: "/tmp/x.yaml" }).cases.map((c) => c.name)).toEqual([
      "first",
      "second",
    ]);
  });

  it("refuses a repeated name, a file that is not a scenario file, and a case that breaks the format", () => {
    const one = addScenarioCase(
      undefined,
      { name: "a", prompt: PROMPT, expect: { outcome: "succeeded" } },
      "/tmp/x.yaml",
    );
    expect(() =>
      addScenarioCase(
        one,
        { name: "a", prompt: PROMPT, expect: { outcome: "succeeded" } },
        "/tmp/x.yaml",
      ),
    ).toThrow(new ScenarioWriteError('/tmp/x.yaml: already has a case named "a"'));
    expect(() =>
      addScenarioCase(
        "items: []\n",
        { name: "a", prompt: PROMPT, expect: { outcome: "succeeded" } },
        "/tmp/x.yaml",
      ),
    ).toThrow("/tmp/x.yaml: not a scenario file (no cases list)");
    expect(() =>
      addScenarioCase(
        undefined,
        { name: "a", prompt: PROMPT, expect: { resutl: "" } },
        "/tmp/x.yaml",
      ),
    ).toThrow(ScenarioFormatError);
  });
});
