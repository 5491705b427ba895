import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "./load-scenarios";
import { runScenarioCase } from "./run-case";

const prompt = (lua: string) =>
  `---\nname: t\ndescription: t\nruntime: 0\n---\n\n# T\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`.replace(
    "runtime: 0",
    "runvil: 0",
  );

function firstCase(yaml: string) {
  const file = loadScenarioFile({ text: yaml, path: "cases.yaml" });
  const scenarioCase = file.cases[0];
  if (scenarioCase === undefined) throw new Error("no case");
  return scenarioCase;
}

function caseWith(lua: string, extra: string): string {
  const indented = prompt(lua)
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");
  return `cases:\n  - name: c\n    prompt: |\n${indented}\n${extra}`;
}

describe("runScenarioCase", () => {
  it("runs a case with its store and args and passes when every expectation holds", async () => {
    const yaml = caseWith(
      "store.append('log.txt', args)\nreturn store.read('log.txt')",
      '    args: "!"\n    store: { "log.txt": "hi" }\n    expect: { result: "hi!", store: { "log.txt": "hi!" } }\n',
    );
    const result = await runScenarioCase("cases.yaml", firstCase(yaml));
    expect(result.mismatches).toEqual([]);
    expect(result.status).toBe("passed");
  });

  it("fails with the mismatch when an expectation does not hold", async () => {
    const yaml = caseWith("return 'a'", '    expect: { result: "b" }\n');
    const result = await runScenarioCase("cases.yaml", firstCase(yaml));
    expect(result.status).toBe("failed");
    expect(result.mismatches.map((m) => m.path)).toEqual(["expect.result"]);
  });

  it("checks a parse error against parse_error", async () => {
    const yaml = caseWith(
      "local x =",
      '    expect: { parse_error: { kind: Lua, message_contains: "lua compilation error at section `Main` prologue" } }\n',
    );
    expect((await runScenarioCase("cases.yaml", firstCase(yaml))).status).toBe("passed");
  });

  it("fails a case that needs scripted models, saying what is missing", async () => {
    const yaml = caseWith(
      "return 'x'",
      '    models: { replies: [ { text: "hi" } ] }\n    expect: { result: "x" }\n',
    );
    const result = await runScenarioCase("cases.yaml", firstCase(yaml));
    expect(result.status).toBe("failed");
    expect(result.failure).toBe("the runner does not provide scripted model replies yet");
  });

  it("cancels a run that outlives the timeout and fails the case", async () => {
    const yaml = caseWith("while true do end", '    expect: { result: "never" }\n');
    const result = await runScenarioCase("cases.yaml", firstCase(yaml), { timeoutMs: 200 });
    expect(result.status).toBe("failed");
    expect(result.failure).toBe("the run did not finish within 200 ms");
  });

  it("honours cancel_after_ms: a spinning block ends as cancelled", async () => {
    const yaml = caseWith(
      "while true do end",
      "    cancel_after_ms: 50\n    expect: { outcome: cancelled }\n",
    );
    expect((await runScenarioCase("cases.yaml", firstCase(yaml))).status).toBe("passed");
  });
});
