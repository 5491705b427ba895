import { encodeValue, promptHash, type RecordedRun } from "@runvil/journal";
import { NO_RUN_USAGE, type RunCatalog, type RunResult } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { exportScenarioCase } from "./export-scenario";

const bytes = new TextEncoder().encode("---\nname: t\ndescription: t\nrunvil: 0\n---\n\n# T\n");
const catalog: RunCatalog = { tools: [], packs: [], preludes: [], dropped: [], models: [] };
const usage = NO_RUN_USAGE;

function recorded(result: RunResult | undefined, seed = "7"): RecordedRun {
  return {
    id: "R",
    promptPath: "t.md",
    promptHash: promptHash(bytes),
    startedAt: 0,
    outcome: result?.outcome ?? "running",
    effects: 0,
    modelRounds: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    events: 0,
    resumes: 0,
    resumedAt: [],
    inputs: {
      promptPath: "t.md",
      promptBytes: bytes,
      args: "",
      seed,
      startedAt: 0,
      host: {
        cwd: "/",
        promptFile: "/nowhere/t.md",
        configFile: null,
        store: null,
        operator: false,
        catalog,
      },
      bindings: {},
      versions: {},
    },
    ...(result === undefined ? {} : { result: encodeValue(result) }),
  };
}

describe("the scenario case of a recorded run", () => {
  it("carries the prompt, args and seed (a text past 2^53), and what the run ended with", async () => {
    const data = await exportScenarioCase(
      recorded(
        {
          outcome: "failed",
          error: { kind: "Lua", message: "boom\nmore", causes: [] },
          var: { n: 1 },
          events: 3,
          usage,
        } as RunResult,
        "18446744073709551615",
      ),
      [],
      undefined,
    );
    expect(data).toEqual({
      name: "recorded run R",
      prompt: new TextDecoder().decode(bytes),
      args: "",
      run: { seed: "18446744073709551615" },
      expect: {
        outcome: "failed",
        error: { kind: "Lua", message: "boom" },
        var: { n: 1 },
        store: {},
      },
    });
  });

  it("refuses a run with no ending, a cancelled run, and a run stopped by the Host's budget", async () => {
    await expect(exportScenarioCase(recorded(undefined), [], undefined)).rejects.toThrow(
      "run R: it has no ending (it is still running, or it was killed): there is no result to expect",
    );
    await expect(
      exportScenarioCase(
        recorded({ outcome: "cancelled", var: {}, events: 2, usage } as RunResult),
        [],
        undefined,
      ),
    ).rejects.toThrow(
      "run R: it was cancelled (or stopped): a scenario cannot cancel a run at the point where it was cancelled",
    );
    const budgeted = recorded({
      outcome: "failed",
      error: { kind: "Quota", message: "budget exceeded", causes: [] },
      var: {},
      events: 2,
      usage,
    } as RunResult);
    (budgeted.inputs.host as { catalog: RunCatalog }).catalog = {
      ...catalog,
      budget: { run: { maxTokens: 10 } },
    } as RunCatalog;
    await expect(exportScenarioCase(budgeted, [], undefined)).rejects.toThrow(
      'run R: it ended on a budget and the Host set one (runvil.config.json "budget"), which a scenario cannot set',
    );
  });
});
