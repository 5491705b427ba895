import { Command, CommanderError } from "commander";
import { checkCommand } from "./commands/check";
import type { CliIo } from "./io";
import { VERSION } from "./version";

/**
 * Runs the `runvil` command line with the given arguments (without `node` and
 * the script path) and resolves to the process exit code. Never throws for bad
 * input: usage errors print to stderr and give exit code 2.
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
    .description("parse prompt files and print each one's outline or its parse error")
    .argument("<files...>", "prompt files (.md)")
    .option("--json", "print a JSON report instead of text")
    .action(async (files: string[], options: { json?: boolean }) => {
      exitCode = await checkCommand(files, { json: options.json === true }, io);
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
