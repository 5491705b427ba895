import { Command, CommanderError } from "commander";
import type { ResumeCommandOptions } from "./commands/resume";
import type { RunCommandOptions } from "./commands/run";
import type { TestOptions } from "./commands/test";
import { addDurableCommands } from "./durable/durable-commands";
import type { CliIo } from "./io";
import { VERSION } from "./version";

/** Collects a repeatable option's values. */
function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

function journalOptions(options: { journal?: string; json?: boolean }): {
  journal?: string;
  json: boolean;
} {
  return {
    json: options.json === true,
    ...(options.journal === undefined ? {} : { journal: options.journal }),
  };
}

/**
 * Runs the `runvil` command line with the given arguments (without `node` and the script path)
 * and resolves to the process exit code. Never throws for bad input: usage errors print to
 * stderr and give exit code 2. Each command's module is loaded only when it runs, so
 * `runvil run` starts without loading the Engine on the main thread.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name("runvil")
    .description("Check, run and test Runvil prompt programs.")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError();

  program
    .command("check")
    .description(
      "parse prompt files and prepare them against their Host; print each one's outline or its error",
    )
    .argument("<files...>", "prompt files (.md)")
    .option("--json", "print a JSON report instead of text")
    .option("--config <file>", "the Host configuration (default: the nearest runvil.config.json)")
    .option("--input <mode>", "where the input broker comes from: auto, stdin or none", "auto")
    .action(
      async (files: string[], options: { json?: boolean; config?: string; input: string }) => {
        const { checkCommand } = await import("./commands/check");
        exitCode = await checkCommand(
          files,
          {
            json: options.json === true,
            input: options.input,
            ...(options.config === undefined ? {} : { config: options.config }),
          },
          io,
        );
      },
    );

  program
    .command("init")
    .description(
      "create a starter project (config, an example prompt and its scenario test) in an empty or new folder",
    )
    .argument("[dir]", "the folder (default: the working directory)", ".")
    .action(async (dir: string) => {
      const { initCommand } = await import("./commands/init");
      exitCode = await initCommand(dir, io);
    });

  program
    .command("run")
    .description("run a prompt file and print its result")
    .argument("<file>", "the prompt file (.md)")
    .option("--args <text>", "the argument string (args)")
    .option("--store <dir>", "keep the run's files in this directory (default: in memory)")
    .option("--events <file>", "write every run event to this file as JSON Lines")
    .option("--otel <url>", "send the run's trace to this OTLP/HTTP traces endpoint")
    .option("--seed <n>", "the run seed, a whole number from 0 to 2^64 - 1")
    .option("--config <file>", "the Host configuration (default: the nearest runvil.config.json)")
    .option(
      "--input <mode>",
      "where the operator's answers come from: auto (the terminal, when stdin is one), stdin (lines of stdin, even a pipe) or none",
      "auto",
    )
    .option(
      "--model <role=model>",
      "bind a model role to a catalog model, such as writer=openai:gpt-5-mini (repeatable)",
      collect,
      [],
    )
    .option("--json", "print one JSON object instead of text")
    .option(
      "--stop-deadline <ms>",
      "how long a stopped run (SIGTERM) may take, while no question is open, before it is cancelled",
      "10000",
    )
    .option("--no-record", "do not record the run in the journal")
    .option(
      "--journal <file|url>",
      "record into this journal: a SQLite file or a postgres:// URL (default: .runvil/runs.db in the project folder)",
    )
    .option(
      "--cost",
      "print the run's model tokens and cost on stderr at the end (default: when stderr is a terminal)",
    )
    .action(async (file: string, options: Omit<RunCommandOptions, "json"> & { json?: boolean }) => {
      const { runCommand } = await import("./commands/run");
      exitCode = await runCommand(file, { ...options, json: options.json === true }, io);
    });

  const journalOption = [
    "--journal <file|url>",
    "the journal: a SQLite file or a postgres:// URL (default: where runvil run records from here)",
  ] as const;
  const runs = program
    .command("runs")
    .description("list, show, serve and prune the runs the journal recorded");
  runs
    .command("list")
    .description(
      "the recorded runs, newest first: id, prompt, start, duration, outcome, model rounds, tool calls, tokens",
    )
    .option(...journalOption)
    .option("--database <url>", "list the durable runs of this database instead (runvil worker)")
    .option("--limit <n>", "at most this many runs")
    .option("--json", "print JSON instead of a table")
    .action(
      async (options: { journal?: string; database?: string; limit?: string; json?: boolean }) => {
        const limit = options.limit === undefined ? undefined : Number(options.limit);
        if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) {
          io.stderr(`--limit must be a whole number above 0, got ${options.limit}\n`);
          exitCode = 2;
          return;
        }
        if (options.database !== undefined) {
          const { durableRunsCommand } = await import("./durable/durable-runs-command");
          exitCode = await durableRunsCommand(
            {
              database: options.database,
              json: options.json === true,
              ...(limit === undefined ? {} : { limit }),
            },
            io,
          );
          return;
        }
        const { runsListCommand } = await import("./commands/runs");
        exitCode = await runsListCommand(
          {
            json: options.json === true,
            ...(options.journal === undefined ? {} : { journal: options.journal }),
            ...(limit === undefined ? {} : { limit }),
          },
          io,
        );
      },
    );
  runs
    .command("show")
    .description(
      "a run's timeline: its sections and their effects with durations, model rounds with usage, the ending",
    )
    .argument("<id>", "the run id, or a unique start of it")
    .option(...journalOption)
    .option("--json", "print JSON instead of text")
    .action(async (id: string, options: { journal?: string; json?: boolean }) => {
      const { runsShowCommand } = await import("./commands/runs");
      exitCode = await runsShowCommand(id, journalOptions(options), io);
    });
  runs
    .command("events")
    .description("a run's events as JSON Lines, exactly as the run emitted them")
    .argument("<id>", "the run id, or a unique start of it")
    .option(...journalOption)
    .option("--json", "the same JSON Lines (accepted for symmetry)")
    .action(async (id: string, options: { journal?: string; json?: boolean }) => {
      const { runsEventsCommand } = await import("./commands/runs");
      exitCode = await runsEventsCommand(id, journalOptions(options), io);
    });
  runs
    .command("prune")
    .description("delete the runs that started longer ago than --older-than")
    .requiredOption("--older-than <age>", "a whole number and a unit: s, m, h, d or w (30d)")
    .option(...journalOption)
    .option("--json", "print JSON instead of text")
    .action(async (options: { olderThan: string; journal?: string; json?: boolean }) => {
      const { runsPruneCommand } = await import("./commands/runs");
      exitCode = await runsPruneCommand(options.olderThan, journalOptions(options), io);
    });

  const portOption = [
    "--port <n>",
    "the port on 127.0.0.1 (default 4780; 0: any free port)",
  ] as const;
  const serve = async (options: { journal?: string; port?: string }, id?: string) => {
    const { parsePort, serveCommand } = await import("./commands/runs-serve");
    const port = options.port === undefined ? undefined : parsePort(options.port);
    if (typeof port === "string") {
      io.stderr(`${port}\n`);
      exitCode = 2;
      return;
    }
    exitCode = await serveCommand(
      {
        ...(options.journal === undefined ? {} : { journal: options.journal }),
        ...(port === undefined ? {} : { port }),
      },
      io,
      id,
    );
  };
  runs
    .command("serve")
    .description(
      "serve the run inspector on 127.0.0.1: the run list and each run's timeline, live while a run records",
    )
    .option(...journalOption)
    .option(...portOption)
    .action((options: { journal?: string; port?: string }) => serve(options));
  program
    .command("inspect")
    .description("serve the run inspector and print the address of one run's page")
    .argument("<id>", "the run id, or a unique start of it")
    .option(...journalOption)
    .option(...portOption)
    .action((id: string, options: { journal?: string; port?: string }) => serve(options, id));
  runs
    .command("export")
    .description(
      "turn a recorded run into a scenario case that passes runvil test offline (its model replies, operator answers, web pages and tool answers scripted)",
    )
    .argument("<id>", "the run id, a unique start of it, or last (the newest run)")
    .option(
      "--scenario [file]",
      "a scenario case: printed, or written to FILE (added to it when it is a scenario file already)",
    )
    .option(...journalOption)
    .action(async (id: string, options: { journal?: string; scenario?: string | true }) => {
      const { runsExportCommand } = await import("./commands/runs-export");
      exitCode = await runsExportCommand(
        id,
        {
          ...(options.journal === undefined ? {} : { journal: options.journal }),
          ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
        },
        io,
      );
    });

  program
    .command("replay")
    .description(
      "re-run recorded runs with the journal answering every effect (nothing live); report the first divergence",
    )
    .argument(
      "[targets...]",
      "run ids (or unique starts of them), or one folder whose journal to replay",
    )
    .option("--all", "replay every run of the journal")
    .option("--recorded", "replay the recorded prompt text even when the prompt file still exists")
    .option(...journalOption)
    .option("--json", "print JSON instead of text")
    .action(
      async (
        targets: string[],
        options: { all?: boolean; recorded?: boolean; journal?: string; json?: boolean },
      ) => {
        const { replayCommand } = await import("./commands/replay");
        exitCode = await replayCommand(
          targets,
          {
            ...journalOptions(options),
            all: options.all === true,
            recorded: options.recorded === true,
          },
          io,
        );
      },
    );

  program
    .command("resume")
    .description(
      "continue a recorded run that was killed, cancelled or stopped: the journal answers what it finished, the rest runs live",
    )
    .argument("<id>", "the run id, or a unique start of it")
    .option("--store <dir>", "the run's store directory (default: the one it was recorded with)")
    .option("--events <file>", "write every event of the resumed run to this file as JSON Lines")
    .option("--config <file>", "the Host configuration (default: the one it was recorded with)")
    .option(
      "--input <mode>",
      "where the operator's answers come from: auto, stdin or none (default: stdin when the run had an operator, else auto)",
    )
    .option(
      "--model <role=model>",
      "bind a model role to a catalog model (repeatable)",
      collect,
      [],
    )
    .option(...journalOption)
    .option("--json", "print one JSON object instead of text")
    .option(
      "--stop-deadline <ms>",
      "how long a stopped run (SIGTERM) may take, while no question is open, before it is cancelled",
      "10000",
    )
    .option("--cost", "print the run's model tokens and cost on stderr at the end")
    .option(
      "--force",
      "take over a run that a process on another host records (only once you know it ended)",
    )
    .action(
      async (
        id: string,
        options: Omit<ResumeCommandOptions, "json"> & { json?: boolean; model: string[] },
      ) => {
        const { resumeCommand } = await import("./commands/resume");
        exitCode = await resumeCommand(id, { ...options, json: options.json === true }, io);
      },
    );

  program
    .command("models")
    .description(
      "list the Host's model catalog and what each model role of the given prompts binds to",
    )
    .argument("[files...]", "prompt files (.md)")
    .option("--config <file>", "the Host configuration (default: the nearest runvil.config.json)")
    .option(
      "--model <role=model>",
      "bind a model role to a catalog model (repeatable)",
      collect,
      [],
    )
    .option("--json", "print a JSON report instead of text")
    .action(
      async (files: string[], options: { config?: string; model: string[]; json?: boolean }) => {
        const { modelsCommand } = await import("./commands/models");
        exitCode = await modelsCommand(
          files,
          {
            json: options.json === true,
            model: options.model,
            ...(options.config === undefined ? {} : { config: options.config }),
          },
          io,
        );
      },
    );

  program
    .command("test")
    .description("run scenario files (cases with scripted parties) and report what failed")
    .argument("<paths...>", "scenario files or folders (*.yaml, *.yml)")
    .option("--json", "print a JSON report instead of text")
    .option("--filter <text>", "run only cases whose name or file path contains the text")
    .option("--verbose", "also list skipped cases")
    .option("--timeout <ms>", "per-case timeout in milliseconds", "10000")
    .action(
      async (
        paths: string[],
        options: { json?: boolean; filter?: string; verbose?: boolean; timeout: string },
      ) => {
        const timeoutMs = Number(options.timeout);
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
          io.stderr(`--timeout must be a whole number of milliseconds, got ${options.timeout}\n`);
          exitCode = 2;
          return;
        }
        const testOptions: TestOptions = {
          json: options.json === true,
          verbose: options.verbose === true,
          timeoutMs,
        };
        if (options.filter !== undefined) testOptions.filter = options.filter;
        const { testCommand } = await import("./commands/test");
        exitCode = await testCommand(paths, testOptions, io);
      },
    );

  addDurableCommands(program, io, (code) => {
    exitCode = code;
  });

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit with code 0; usage errors with 2.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
  return exitCode;
}
