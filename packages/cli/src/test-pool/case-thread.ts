/**
 * The script of a `runvil test` case thread (built as dist/test-worker.js): it loads the Engine
 * and the parser once, says `ready`, then runs each case the main thread hands it with
 * `runScenarioCase` and posts the result. The main thread ends the thread when a case outlives
 * its timeout (docs/design/cli.md "runvil test: case threads").
 */
import { parentPort } from "node:worker_threads";
import { loadEngine } from "@runvil/engine";
import { loadLuaRuntime } from "@runvil/lua";
import { checkedCaseResult, runScenarioCase } from "@runvil/testkit";
import { ScenarioConfigs } from "../host/scenario-configs";
import type { FromCaseThread, ToCaseThread } from "./messages";

const port = parentPort;
if (port === null) throw new Error("dist/test-worker.js runs only as a case thread of runvil test");
const post = (message: FromCaseThread): void => port.postMessage(message);
const configs = new ScenarioConfigs();

port.on("message", (message: ToCaseThread) => {
  const { id, job, timeoutMs } = message;
  post({ type: "started", id });
  configs
    .for(job.file)
    .then((config) => runScenarioCase(job.file, job.scenarioCase, { timeoutMs, ...config }))
    .catch((error: unknown) => {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      return checkedCaseResult(job.file, job.scenarioCase, [], `the runner failed: ${text}`);
    })
    .then((result) => post({ type: "result", id, result }));
});

await Promise.all([loadEngine(), loadLuaRuntime()]);
post({ type: "ready" });
