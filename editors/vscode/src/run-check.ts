import { execFile } from "node:child_process";
import { type CheckReport, parseCheckReport } from "./check-report";

/** How `runvil check` is started: the command and the arguments before the file. */
export interface CheckCommand {
  command: string;
  args: readonly string[];
  /** A Windows `.cmd` shim runs through the shell. */
  shell: boolean;
}

/** Longest a check may take before it is stopped (a Host whose MCP server hangs, say). */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Runs `runvil check --json FILE` in `cwd` and reads its report. `runvil check` exits 1 when the
 * prompt has problems and still prints its report, so the exit code is not what decides: a
 * run that prints no report (the command is missing, it crashed, it timed out) rejects with
 * an error naming the command and what went wrong.
 */
export function runCheck(command: CheckCommand, file: string, cwd: string): Promise<CheckReport> {
  const args = [...command.args, "check", "--json", file];
  const shown = [command.command, ...args].join(" ");
  return new Promise((resolve, reject) => {
    execFile(
      command.command,
      args,
      {
        cwd,
        shell: command.shell,
        timeout: CHECK_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: "1" },
      },
      (error, stdout, stderr) => {
        if (error !== null && stdout.trim() === "") {
          const reason =
            (error as NodeJS.ErrnoException).code === "ENOENT"
              ? "the command was not found (set runvil.path, or add @runvil/cli to the workspace)"
              : error.killed
                ? `it did not finish within ${CHECK_TIMEOUT_MS / 1000} s`
                : stderr.trim() || error.message;
          reject(new Error(`${shown} failed: ${reason}`));
          return;
        }
        try {
          resolve(parseCheckReport(stdout));
        } catch (problem) {
          reject(new Error(`${shown}: ${(problem as Error).message}`));
        }
      },
    );
  });
}
