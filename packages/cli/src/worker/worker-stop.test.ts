import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_RUN_USAGE } from "@runvil/protocol";
import type { InputBroker } from "@runvil/sdk";
import { afterAll, describe, expect, it } from "vitest";
import type { RunHandle } from "../run/run-handle";
import { startWorkerRun } from "./worker-run";

/** The built worker (dist/worker.cjs): the whole run, Engine and Harness included. */
const workerUrl = new URL("../../dist/worker.cjs", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "runvil-worker-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ASK_PROMPT = `---
name: ask
description: Asks once, then writes the answer.
runvil: 0
uses: [user-input]
---

# Ask

## Main

\`\`\`lua
local text = input.ask()
store.write('answer.txt', text)
return text
\`\`\`
`;

describe("stopping a worker run (dist/worker.cjs)", () => {
  it("keeps the operator's question open through a stop, records the answer, ends stopped", async () => {
    const lines: string[] = [];
    let handle: RunHandle | undefined;
    // The stop is posted before the answer, so the worker sees the stop while the ask waits.
    const broker: InputBroker = {
      ask: () => {
        handle?.stop();
        return Promise.resolve("typed");
      },
    };
    handle = startWorkerRun(
      {
        file: join(dir, "ask.md"),
        bytes: new TextEncoder().encode(ASK_PROMPT),
        args: "",
        operator: true,
        eventLines: true,
        progress: false,
      },
      { workerUrl, broker, onEventLine: (line) => lines.push(line) },
    );
    const end = await handle.done;
    expect(end).toEqual({
      kind: "report",
      report: {
        kind: "finished",
        result: {
          outcome: "cancelled",
          stopped: true,
          var: {},
          events: 12,
          usage: NO_RUN_USAGE,
        },
      },
    });
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.type === "tool_result")).toMatchObject([
      { tool: "user-input/ask", content: "typed", trusted: true },
    ]);
    expect(events.filter((e) => e.type === "store_op")).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: "run_finished",
      outcome: "cancelled",
      stopped: true,
    });
  });

  it("counts the stop deadline only while no operator question is open", async () => {
    let handle: RunHandle | undefined;
    // The stop comes while the question is open; the answer comes well past the deadline.
    const broker: InputBroker = {
      ask: () => {
        handle?.stop();
        return new Promise((resolve) => setTimeout(() => resolve("late"), 800));
      },
    };
    handle = startWorkerRun(
      {
        file: join(dir, "ask.md"),
        bytes: new TextEncoder().encode(ASK_PROMPT),
        args: "",
        operator: true,
        eventLines: false,
        progress: false,
      },
      { workerUrl, broker, stopDeadlineMs: 250 },
    );
    const end = await handle.done;
    expect(end).not.toHaveProperty("afterStop");
    expect(end).toMatchObject({
      kind: "report",
      report: { kind: "finished", result: { outcome: "cancelled", stopped: true } },
    });
  });
});
