import { definePack, definePlugin } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { executeCase } from "./execute-case";
import { loadScenarioFile } from "./load-scenarios";
import { runScenarioCase } from "./run-case";

/** The one case of a file whose prompt declares `uses` and runs `lua`, with extra case keys. */
function stopCase(uses: string, lua: string, extra: string) {
  const prompt = `---\nname: t\ndescription: t\nrunvil: 0\nuses: [${uses}]\n---\n\n# T\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`;
  const indented = prompt
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");
  const file = loadScenarioFile({
    text: `cases:\n  - name: c\n    prompt: |\n${indented}\n${extra}`,
    path: "cases.yaml",
  });
  const scenarioCase = file.cases[0];
  if (scenarioCase === undefined) throw new Error("no case");
  return scenarioCase;
}

/** A Pack `acme/slow` whose tool survives a stop and answers `late` 900 ms after it is called. */
const slowPlugin = definePlugin({
  name: "acme-slow",
  setup(api) {
    api.addPack(
      definePack({
        vendor: "acme",
        name: "slow",
        description: "Answers late.",
        tools: [
          {
            id: "slow/answer",
            description: "Answers after a while.",
            parameters: { type: "object", properties: {} },
            trust: "trusted",
            survivesStop: true,
            run: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 900)),
          },
        ],
      }),
    );
  },
});

// The held-question cases need the stop to come once input.ask() is open; on a loaded shared
// machine the run can take well over 100 ms of wall time to get there, so they stop at 250 ms.
describe("stop_after_ms", () => {
  it("stops a spinning block: the run ends cancelled, marked stopped", async () => {
    const result = await runScenarioCase(
      "cases.yaml",
      stopCase(
        "user-input",
        "while true do end",
        `    stop_after_ms: 20
    expect:
      outcome: cancelled
      events:
        - { type: run_finished, outcome: cancelled, stopped: true }
`,
      ),
    );
    expect([result.status, result.failure, result.mismatches]).toEqual(["passed", undefined, []]);
  });

  it("leaves a held operator question open through the stop: only the cancel ends it", async () => {
    const run = await executeCase(
      stopCase(
        "user-input",
        "local text = input.ask()\nlog('answered ' .. text)",
        "    operator: [{ hold: true }]\n    stop_after_ms: 250\n    cancel_after_ms: 1000\n    expect: { outcome: cancelled }\n",
      ),
    );
    expect(run.failure).toBeUndefined();
    expect(run.record?.outcome).toBe("cancelled");
    expect(run.record?.checkpoints).toEqual([]);
    const types = run.record?.events.map((e) => e.type);
    expect(types?.filter((t) => String(t).startsWith("tool_"))).toEqual(["tool_call_started"]);
    // The cancel, not the stop, ended the run: the question was still open when it came.
    expect(run.record?.events.at(-1)).toEqual(
      expect.objectContaining({ type: "run_finished", outcome: "cancelled" }),
    );
    expect(run.record?.events.at(-1)).not.toHaveProperty("stopped");
  });

  it("keeps a held question open after a stop until the case times out", async () => {
    const run = await executeCase(
      stopCase(
        "user-input",
        "return input.ask()",
        "    operator: [{ hold: true }]\n    stop_after_ms: 250\n    expect: { outcome: cancelled }\n",
      ),
      { timeoutMs: 1000 },
    );
    expect(run.failure).toBe("the run did not finish within 1000 ms");
  });

  it("records the answer of a tool that survives the stop, then ends stopped", async () => {
    const result = await runScenarioCase(
      "cases.yaml",
      stopCase(
        "acme/slow",
        "local text = tools.call('slow/answer')\nlog('after ' .. text)\nreturn text",
        `    stop_after_ms: 250
    expect:
      outcome: cancelled
      checkpoints: []
      events:
        - { type: tool_call_started, tool: slow/answer }
        - { type: tool_result, tool: slow/answer, content: late }
        - { type: chunk_failed }
        - { type: run_finished, outcome: cancelled, stopped: true }
`,
      ),
      { plugins: [{ plugin: slowPlugin }] },
    );
    expect([result.status, result.failure, result.mismatches]).toEqual(["passed", undefined, []]);
  });
});
