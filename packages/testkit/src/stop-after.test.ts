import type { RunEvent } from "@runvil/protocol";
import { definePack, definePlugin } from "@runvil/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

/**
 * A Pack `acme/slow` whose tool survives a stop and answers `late` once the call is pending
 * and the case's clock has passed 250 ms (stop_after_ms: 250), so the stop always comes while
 * it runs.
 */
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
            run: () =>
              new Promise<string>((resolve) => {
                setImmediate(() => {
                  vi.advanceTimersByTime(250);
                  setImmediate(() => resolve("late"));
                });
              }),
          },
        ],
      }),
    );
  },
});

// The case's clock (its timers and performance.now) is faked, so time moves only when a test
// moves it, at the moment the run gets where the test wants it: the stop comes once the block
// starts or once the question opens, however slow the machine is. Nothing is timed.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock by `ms` once the thread is idle (the pending call has been made). */
function laterAdvance(ms: number): void {
  setImmediate(() => vi.advanceTimersByTime(ms));
}

/** An onEvent that calls `then` the first time an event of `type` is emitted. */
function onFirst(type: string, then: () => void): (event: RunEvent) => void {
  let seen = false;
  return (event) => {
    if (seen || event.type !== type) return;
    seen = true;
    then();
  };
}

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
      // The clock passes the stop as the block starts; the count hook sees it while it spins.
      { onEvent: onFirst("chunk_started", () => vi.advanceTimersByTime(20)) },
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
      {
        // The stop once the question is open; the cancel once the stop has been seen.
        onEvent: onFirst("tool_call_started", () => {
          setImmediate(() => {
            vi.advanceTimersByTime(250);
            laterAdvance(750);
          });
        }),
      },
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
      {
        timeoutMs: 1000,
        onEvent: onFirst("tool_call_started", () => {
          setImmediate(() => {
            vi.advanceTimersByTime(250);
            laterAdvance(750);
          });
        }),
      },
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
