import { execFile } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { WorkerStart } from "./messages";
import {
  discardPrestartedRunWorker,
  PRESTART_WORKER_DATA,
  prestartRunWorker,
  takePrestartedRunWorker,
} from "./prestart";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
const example = fileURLToPath(
  new URL("../../../../examples/word-count/word-count.md", import.meta.url),
);
const cacheFile = fileURLToPath(new URL("../../dist/worker-bundle.cjs.cache", import.meta.url));

const start: WorkerStart = {
  request: {
    file: "x.md",
    bytes: new Uint8Array(),
    args: "",
    operator: false,
    eventLines: false,
    progress: false,
  },
  cancelFlag: new SharedArrayBuffer(8),
};

describe("the prestarted run worker", () => {
  it("is not there unless started", () => {
    expect(takePrestartedRunWorker(start)).toBeUndefined();
  });

  it("hands its start to the worker that was started early", async () => {
    // A stand-in for dist/worker.cjs that sends back what it was handed.
    const echo = new URL(
      `data:text/javascript,${encodeURIComponent(
        `import { parentPort, workerData } from "node:worker_threads";
         parentPort.once("message", (m) => { parentPort.postMessage({ workerData, m }); parentPort.close(); });`,
      )}`,
    );
    const worker = prestartRunWorker(echo);
    expect(prestartRunWorker(echo)).toBe(worker);
    expect(takePrestartedRunWorker(start)).toBe(worker);
    const [echoed] = await once(worker, "message");
    expect(echoed).toEqual({ workerData: PRESTART_WORKER_DATA, m: { type: "start", start } });
    expect(takePrestartedRunWorker(start)).toBeUndefined();
  });

  it("is not handed out once it died (the run then starts its own)", async () => {
    const worker = prestartRunWorker(new URL("data:text/javascript,throw new Error('broken')"));
    // (events.once would reject on the worker's error event)
    await new Promise((resolve) => worker.on("exit", resolve));
    expect(takePrestartedRunWorker(start)).toBeUndefined();
  });

  it("is ended when no run takes it", async () => {
    const worker = prestartRunWorker(new URL("data:text/javascript,setInterval(() => {}, 1000)"));
    discardPrestartedRunWorker();
    expect(takePrestartedRunWorker(start)).toBeUndefined();
    // The stand-in never ends by itself: only the termination ends it.
    await once(worker, "exit");
  });
});

describe("the built worker (end to end)", () => {
  it("runs a prompt in the prestarted worker with the code cache the build wrote", async () => {
    const before = readFileSync(cacheFile);
    const { stdout, stderr } = await run(process.execPath, [bin, "run", example]);
    expect(stdout).toBe("the=3, and=2, bird=1\n");
    expect(stderr).toBe("");
    // A refused cache would have been written again.
    expect(readFileSync(cacheFile).equals(before)).toBe(true);
  });
});
