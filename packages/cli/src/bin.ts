#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import type { InputBroker } from "@runvil/sdk";
import { runCli } from "./run-cli";
import { terminalBroker } from "./terminal-broker";

let broker: InputBroker | undefined;
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFile(path),
  stderrIsTTY: process.stderr.isTTY === true,
  onInterrupt: (listener) => {
    process.on("SIGINT", listener);
    return () => {
      process.off("SIGINT", listener);
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
// Standard input, once read by the operator's broker, would keep the process alive while it
// stays open (a pipe, a terminal): release it.
if (broker !== undefined) process.stdin.destroy();
process.exitCode = code;
