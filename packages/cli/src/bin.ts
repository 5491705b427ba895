#!/usr/bin/env node
// Only what starts the run's worker is imported statically: every other module loads after the
// worker thread has started (docs/design/performance.md).
import type { InputBroker } from "@runvil/sdk";
import { startupMark } from "./startup-marks";
import { discardPrestartedRunWorker, prestartRunWorker } from "./worker/prestart";

startupMark("bin");

// `runvil run` starts its worker thread before anything else loads, so the thread's start
// overlaps loading commander and reading the prompt (docs/design/performance.md).
if (process.argv[2] === "run") prestartRunWorker();
const [{ runCli }, { terminalBroker }, { readInputFile }] = await Promise.all([
  import("./run-cli"),
  import("./terminal-broker"),
  import("@runvil/host/input-file"),
]);
startupMark("cli loaded");

let broker: InputBroker | undefined;
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: async (path) => readInputFile(path, { what: "a prompt file" }),
  stderrIsTTY: process.stderr.isTTY === true,
  onInterrupt: (listener) => {
    process.on("SIGINT", listener);
    return () => {
      process.off("SIGINT", listener);
    };
  },
  onTerminate: (listener) => {
    process.on("SIGTERM", listener);
    return () => {
      process.off("SIGTERM", listener);
    };
  },
  operator: {
    isTTY: process.stdin.isTTY === true,
    broker: () => {
      broker ??= terminalBroker();
      return broker;
    },
  },
  runInWorker: true,
  exit: (exitCode) => process.exit(exitCode),
});
discardPrestartedRunWorker();
// Standard input, once read by the operator's broker, would keep the process alive while it
// stays open (a pipe, a terminal): release it.
if (broker !== undefined) process.stdin.destroy();
process.exitCode = code;
startupMark("done");
// A finished `runvil run` has nothing left but its output: it exits once standard output and
// standard error have handed what was written to the system (their write callbacks; pipes are
// asynchronous on some platforms), instead of waiting for Node's own teardown of the ended
// worker and the loop (~8 ms; docs/design/performance.md).
if (process.argv[2] === "run") {
  process.stdout.write("", () => {
    process.stderr.write("", () => process.exit(code));
  });
}
