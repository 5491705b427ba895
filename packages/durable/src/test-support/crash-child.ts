/**
 * A durable worker process for the recovery tests (bundled with esbuild by the test, then run
 * with node): argv = database URL, executor id, store folder, log file. Each run's store is a
 * DirectoryStore in `{store folder}/{run id}`; every effect performed is logged
 * (`{pid} perform {run} {kind} {effect}`), and every effect whose durable step settled
 * (`{pid} settled {run} {effect}`), so a test can check that no completed step ran again.
 * Completion delays are random per process (seeded by the pid), so every execution interleaves
 * its concurrent chains differently. Prints `ready` once DBOS is launched. SIGTERM drains the
 * worker and hands its unfinished runs over to the queue. RUNVIL_PARK_AFTER (ms) turns parking on.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DirectoryStore } from "@runvil/harness";
import type { EffectPort } from "@runvil/protocol";
import { launchDurableWorker } from "../durable-worker";
import { ScriptedPort } from "./scripted-port";
import { runOn } from "./test-execute";

const [databaseUrl, executorId, storeRoot, logFile] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];

function observed(runId: string, port: EffectPort): EffectPort {
  const settle = <T>(effect: string, promise: Promise<T>): Promise<T> =>
    promise.finally(() => appendFileSync(logFile, `${process.pid} settled ${runId} ${effect}\n`));
  return {
    storeOp: (request) => settle(request.effect, port.storeOp(request)),
    toolCall: (request) =>
      settle(request.effect, port.toolCall?.(request) ?? Promise.reject(new Error("no tool port"))),
    modelRound: (request) =>
      settle(
        request.effect,
        port.modelRound?.(request) ?? Promise.reject(new Error("no model port")),
      ),
    emit: (event) => port.emit(event),
  };
}

const worker = await launchDurableWorker({
  databaseUrl,
  executorId,
  concurrency: 8,
  // RUNVIL_PARK_AFTER (ms) parks asking runs; unset, a waiting run keeps its slot (the recovery
  // tests kill workers whose asking runs must still be theirs).
  parkAfterMs:
    process.env.RUNVIL_PARK_AFTER === undefined ? "never" : Number(process.env.RUNVIL_PARK_AFTER),
  execute: async (execution) => {
    const { input } = execution;
    const folder = join(storeRoot, input.runId);
    mkdirSync(folder, { recursive: true });
    const port = new ScriptedPort({
      store: new DirectoryStore(folder, { sync: false }),
      delaySeed: process.pid,
      maxDelayMs: 8,
      ...(process.env.RUNVIL_HOLD_VALUE === undefined
        ? {}
        : { holdValue: process.env.RUNVIL_HOLD_VALUE }),
      onPerform: (kind, effect) => {
        appendFileSync(logFile, `${process.pid} perform ${input.runId} ${kind} ${effect}\n`);
      },
    });
    return runOn(
      observed(input.runId, execution.wrap(port)),
      input.prompt.text,
      input,
      execution.signal,
    );
  },
});
// SIGTERM drains: the steps in flight finish, then the unfinished runs go back on the queue.
process.on("SIGTERM", () => {
  void worker.shutdown({ handOver: true }).then(() => process.exit(0));
});
process.stdout.write("ready\n");
