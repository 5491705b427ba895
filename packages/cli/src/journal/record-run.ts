import type { RunInputs } from "@runvil/journal";
import type { EffectPort, RunCatalog, RunResult } from "@runvil/protocol";
import { directoryFingerprint } from "../resume/store-fingerprint";
import { startupMark } from "../startup-marks";
import { VERSION } from "../version";

/** What the journal keeps as a CLI run's Host snapshot (RunInputs.host). */
export interface CliHostSnapshot {
  /** The working directory of the run. */
  readonly cwd: string;
  /** The prompt file's absolute path (a replay reads it there when it still exists). */
  readonly promptFile: string;
  /** The configuration file's absolute path, or null without one. */
  readonly configFile: string | null;
  /** The store directory, or null for an in-memory store. */
  readonly store: string | null;
  /** Whether the run was lent an input broker. */
  readonly operator: boolean;
  /** The run's catalog as prepared. */
  readonly catalog: RunCatalog;
}

/** A run being recorded. */
export interface Recording {
  /** The port to run the Engine on. */
  readonly effects: EffectPort;
  /** The recorded run's id. */
  readonly runId: string;
  /**
   * Records the ending and closes the journal. Resolves with a warning to print when recording
   * stopped early (a full disk, a lock held too long), else undefined.
   */
  finish(result: RunResult): Promise<string | undefined>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens the journal at `location` (loading @runvil/journal and its database client only now)
 * and starts recording a run over `inner`. With a store directory (`store`), every store change
 * records an intent first, so a resume can tell whether it was applied (docs/design/resume.md).
 * Rejects with the journal's error (a JournalError
 * naming the file and what to do) when it cannot be opened or written.
 */
export async function startRecording(
  location: string,
  inputs: Omit<RunInputs, "versions" | "startedAt">,
  inner: EffectPort,
  store?: string,
): Promise<Recording> {
  const { createIntentPort, createJournalPort, openJournal } = await import("@runvil/journal");
  startupMark("journal module loaded");
  const journal = await openJournal(location);
  startupMark("journal file opened");
  let port: ReturnType<typeof createJournalPort>;
  try {
    const recorder = await journal.startRun({
      ...inputs,
      startedAt: Date.now(),
      versions: { "@runvil/cli": VERSION, node: process.version },
    });
    port = createJournalPort(
      store === undefined
        ? inner
        : createIntentPort(inner, recorder, { fingerprint: directoryFingerprint(store) }),
      recorder,
    );
  } catch (error) {
    await journal.close();
    throw error;
  }
  return {
    effects: port.effects,
    runId: port.runId,
    async finish(result: RunResult): Promise<string | undefined> {
      await port.finish(result);
      await journal.close().catch(() => {});
      const failed = port.recordingError;
      if (failed === undefined) return undefined;
      return `${messageOf(failed)} (the run went on; run ${port.runId}'s record ends before it)`;
    },
  };
}
