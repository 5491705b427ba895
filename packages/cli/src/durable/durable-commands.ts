import type { Command } from "commander";
import type { CliIo } from "../io";

/** Collects a repeatable option's values. */
function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

/**
 * `runvil worker`'s default `--park-after`: @runvil/durable's DEFAULT_PARK_AFTER_MS, spelled out
 * so that this module loads no DBOS (durable-commands.test.ts holds them equal).
 */
export const WORKER_PARK_AFTER_MS = "30000";

const DATABASE = [
  "--database <url>",
  "the durable runs database (postgres://user@host:port/db), shared by every worker",
] as const;

/**
 * Adds the durable-run commands (docs/design/durable-workers.md): `worker`, `submit` and
 * `answer`. Each command's module loads only when it runs (DBOS and pg are not loaded by the
 * other commands).
 */
export function addDurableCommands(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  program
    .command("worker")
    .description(
      "take durable runs from the queue of a database; SIGTERM drains (steps in flight finish, the rest go on elsewhere)",
    )
    .option(...DATABASE)
    .option("--concurrency <n>", "runs at once in this worker", "4")
    .option(
      "--executor-id <id>",
      "this worker's id; a worker started again with it recovers its runs (default host-pid)",
    )
    .option(
      "--dead-after <seconds>",
      "a worker silent this long is taken for dead and its runs recovered",
      "15",
    )
    .option("--heartbeat <ms>", "the time between heartbeats and looks for dead workers", "2000")
    .option(
      "--park-after <ms>",
      "a run waiting on operator asks alone this long leaves its slot until answered (0: at once; off: never)",
      WORKER_PARK_AFTER_MS,
    )
    .action(
      async (options: {
        database?: string;
        concurrency: string;
        executorId?: string;
        deadAfter: string;
        heartbeat: string;
        parkAfter: string;
      }) => {
        const { workerCommand } = await import("./worker-command");
        setExitCode(await workerCommand(options, io));
      },
    );

  program
    .command("submit")
    .description(
      "enqueue a prompt file as a durable run and print its id; --wait prints its result",
    )
    .argument("<file>", "the prompt file (.md)")
    .option(...DATABASE)
    .option("--args <text>", "the argument string (args)")
    .option("--seed <n>", "the run seed, a whole number from 0 to 2^53 - 1 (default: random)")
    .option("--config <file>", "the Host configuration (default: the nearest runvil.config.json)")
    .option(
      "--model <role=model>",
      "bind a model role to a catalog model (repeatable)",
      collect,
      [],
    )
    .option("--wait", "wait for the run to finish and print its result as runvil run does")
    .option("--json", "print JSON instead of text")
    .action(
      async (
        file: string,
        options: {
          database?: string;
          args?: string;
          seed?: string;
          config?: string;
          model: string[];
          wait?: boolean;
          json?: boolean;
        },
      ) => {
        const { submitCommand } = await import("./submit-command");
        setExitCode(await submitCommand(file, options, io));
      },
    );

  program
    .command("answer")
    .description("deliver the operator's answer to the ask a durable run waits on")
    .argument("<run>", "the durable run's id")
    .argument("<text>", "the answer")
    .option(...DATABASE)
    .action(async (run: string, text: string, options: { database?: string }) => {
      const { answerCommand } = await import("./answer-command");
      setExitCode(await answerCommand(run, text, options, io));
    });
}
