#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { runCli } from "./run-cli";

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
});
process.exitCode = code;
