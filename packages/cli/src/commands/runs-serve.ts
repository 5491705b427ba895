import type { Journal } from "@runvil/journal";
import type { CliIo } from "../io";
import { openCliJournal } from "../journal/cli-journal";

/** Options of `runvil runs serve` and `runvil inspect`. */
export interface ServeOptions {
  /** `--journal FILE|URL`; absent: where `runvil run` records from here. */
  readonly journal?: string;
  /** `--port N` (default the inspector's, 4780; 0: any free port). */
  readonly port?: number;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `--port`'s value, or an error message for one that is not a port. */
export function parsePort(text: string): number | string {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  return Number.isInteger(port) && port <= 65_535
    ? port
    : `--port must be a whole number from 0 to 65535 (0: any free port), got ${text}`;
}

/** Resolves on the first Ctrl-C or SIGTERM (never when the io handles neither). */
function untilStopped(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    const stops: (() => void)[] = [];
    const stop = () => {
      for (const off of stops) off();
      resolve();
    };
    if (io.onInterrupt !== undefined) stops.push(io.onInterrupt(stop));
    if (io.onTerminate !== undefined) stops.push(io.onTerminate(stop));
  });
}

/**
 * Serves the inspector over the journal until `until` resolves (default: Ctrl-C or SIGTERM).
 * `runId`: `runvil inspect`, which checks the run first and prints its page's address. Errors
 * at start (no journal, one it cannot read, no such run, a port in use) print one line, exit 1.
 */
export async function serveCommand(
  options: ServeOptions,
  io: CliIo,
  runId?: string,
  until: Promise<void> = untilStopped(io),
): Promise<number> {
  const opened = await openCliJournal(options.journal);
  if (!opened.ok) {
    io.stderr(
      "missing" in opened
        ? `${opened.missing}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`
        : `${opened.error}\n`,
    );
    return 1;
  }
  const journal: Journal = opened.journal;
  try {
    let id: string | undefined;
    if (runId !== undefined) {
      const run = await journal.findRun(runId);
      if (run === undefined) {
        io.stderr(`${opened.shown}: no run ${runId} (runvil runs list shows the recorded runs)\n`);
        return 1;
      }
      id = run.id;
    }
    const { startInspector } = await import("@runvil/inspector");
    const inspector = await startInspector({
      journal,
      shown: opened.shown,
      ...(options.port === undefined ? {} : { port: options.port }),
    });
    const page = id === undefined ? `${inspector.url}/` : inspector.runUrl(id);
    io.stdout(
      `${id === undefined ? "the inspector" : `run ${id}`}: ${page} (journal ${opened.shown}; Ctrl-C stops it)\n`,
    );
    await until;
    await inspector.close();
    return 0;
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return 1;
  } finally {
    await journal.close().catch(() => {});
  }
}
