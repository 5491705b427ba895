import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { InputRequest } from "@runvil/sdk";
import { afterAll, describe, expect, it } from "vitest";
import type { RunRequest } from "../run/run-request";
import { startWorkerRun } from "./worker-run";

/**
 * A stand-in for dist/worker.cjs: it plays the scenario named by the request's `args`, so the
 * main thread's side is tested without the Engine.
 */
const FAKE_WORKER = `
import { parentPort, workerData } from "node:worker_threads";
const post = (m) => parentPort.postMessage(m);
const finished = (result) => post({ type: "report", report: { kind: "finished", result: { outcome: "succeeded", result, var: {}, events: 0 } } });
const scenario = workerData.request.args;
const flag = new Int32Array(workerData.cancelFlag);
if (scenario === "relay") {
  post({ type: "event-line", line: "{}\\n" });
  post({ type: "progress", text: "running: A · 1 effect" });
  post({ type: "tool-error", toolId: "t/x", text: "Error: boom" });
  post({ type: "model-error", model: "echo-model", text: "Error: wire cut" });
  finished("ok");
} else if (scenario === "ask") {
  post({ type: "ask", id: 7, prompt: "name? " });
  parentPort.on("message", (m) => {
    if (m.type === "answer") finished("answered " + m.text);
    if (m.type === "answer-failed") finished("failed " + m.message);
  });
} else if (scenario === "withdraw") {
  post({ type: "ask", id: 1 });
  parentPort.on("message", (m) => {
    if (m.type !== "cancel") return;
    post({ type: "ask-withdrawn", id: 1 });
    post({ type: "report", report: { kind: "finished", result: { outcome: "cancelled", var: {}, events: 0 } } });
  });
} else if (scenario === "flag") {
  while (Atomics.load(flag, 0) === 0) {}
  finished("saw the flag");
} else if (scenario === "stop") {
  while (Atomics.load(flag, 1) === 0) {}
  parentPort.on("message", (m) => {
    if (m.type === "stop") finished("saw the stop; cancel flag " + Atomics.load(flag, 0));
  });
} else if (scenario === "cancel-then-stop") {
  parentPort.on("message", (m) => {
    if (m.type === "cancel") finished("stop flag " + Atomics.load(flag, 1));
  });
} else if (scenario === "crash") {
  post({ type: "crash", message: "Error: a bug" });
} else if (scenario === "exit") {
  process.exit(3);
} else if (scenario === "stuck") {
  for (;;) {}
}
`;

const dir = mkdtempSync(join(tmpdir(), "runvil-worker-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const workerFile = join(dir, "fake-worker.mjs");
writeFileSync(workerFile, FAKE_WORKER);
const workerUrl = pathToFileURL(workerFile);

function request(scenario: string): RunRequest {
  return {
    file: "p.md",
    bytes: new Uint8Array(),
    args: scenario,
    operator: true,
    eventLines: true,
    progress: true,
  };
}

describe("startWorkerRun", () => {
  it("relays event lines, progress, tool and model errors, then the report", async () => {
    const seen: string[] = [];
    const handle = startWorkerRun(request("relay"), {
      workerUrl,
      onEventLine: (line) => seen.push(`event ${line.trim()}`),
      onProgress: (text) => seen.push(`progress ${text}`),
      onToolError: (tool, text) => seen.push(`tool-error ${tool} ${text}`),
      onModelError: (model, text) => seen.push(`model-error ${model} ${text}`),
    });
    expect(await handle.done).toEqual({
      kind: "report",
      report: {
        kind: "finished",
        result: { outcome: "succeeded", result: "ok", var: {}, events: 0 },
      },
    });
    expect(seen).toEqual([
      "event {}",
      "progress running: A · 1 effect",
      "tool-error t/x Error: boom",
      "model-error echo-model Error: wire cut",
    ]);
  });

  it("forwards an ask to the broker with its prompt and posts the answer back", async () => {
    const asked: InputRequest[] = [];
    const handle = startWorkerRun(request("ask"), {
      workerUrl,
      broker: {
        ask: async (question) => {
          asked.push(question);
          return "ada";
        },
      },
    });
    const end = await handle.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result,
    ).toMatchObject({
      result: "answered ada",
    });
    expect(asked.map((question) => question.prompt)).toEqual(["name? "]);
  });

  it("posts the broker's failure, or a failure when there is no broker", async () => {
    const failing = startWorkerRun(request("ask"), {
      workerUrl,
      broker: { ask: () => Promise.reject(new Error("the operator's window closed")) },
    });
    const end = await failing.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result,
    ).toMatchObject({
      result: "failed the operator's window closed",
    });
    const none = await startWorkerRun(request("ask"), { workerUrl }).done;
    expect(
      none.kind === "report" && none.report.kind === "finished" && none.report.result,
    ).toMatchObject({
      result: "failed this run has no operator to ask",
    });
  });

  it("aborts the terminal wait when the worker withdraws the ask", async () => {
    let signal: AbortSignal | undefined;
    const handle = startWorkerRun(request("withdraw"), {
      workerUrl,
      broker: {
        ask: (question) => {
          signal = question.signal;
          setImmediate(() => handle.cancel());
          return new Promise<string>(() => {});
        },
      },
    });
    const end = await handle.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result.outcome,
    ).toBe("cancelled");
    expect(signal?.aborted).toBe(true);
  });

  it("sets the shared cancel flag on cancel", async () => {
    const handle = startWorkerRun(request("flag"), { workerUrl });
    handle.cancel();
    const end = await handle.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result,
    ).toMatchObject({
      result: "saw the flag",
    });
  });

  it("sets the shared stop flag and posts stop on stop, once", async () => {
    const handle = startWorkerRun(request("stop"), { workerUrl });
    handle.stop();
    handle.stop();
    const end = await handle.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result,
    ).toMatchObject({ result: "saw the stop; cancel flag 0" });
  });

  it("does not stop a run it already cancelled", async () => {
    const handle = startWorkerRun(request("cancel-then-stop"), { workerUrl });
    handle.cancel();
    handle.stop();
    const end = await handle.done;
    expect(
      end.kind === "report" && end.report.kind === "finished" && end.report.result,
    ).toMatchObject({ result: "stop flag 0" });
  });

  it("terminates a worker that does not end within the grace period", async () => {
    const handle = startWorkerRun(request("stuck"), { workerUrl, graceMs: 50 });
    handle.cancel();
    handle.cancel();
    expect(await handle.done).toEqual({ kind: "terminated" });
  });

  it("rejects when the worker crashes or exits without a report", async () => {
    await expect(startWorkerRun(request("crash"), { workerUrl }).done).rejects.toThrow(
      "the run's thread failed: Error: a bug",
    );
    await expect(startWorkerRun(request("exit"), { workerUrl }).done).rejects.toThrow(
      "the run's thread exited (code 3) before the run ended",
    );
  });
});
