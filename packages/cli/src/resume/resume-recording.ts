import type { Divergence, RunClaim } from "@runvil/journal";
import type { EffectPort, RunResult } from "@runvil/protocol";
import { directoryFingerprint } from "./store-fingerprint";

/** A resumed run being recorded into its own record (docs/design/resume.md). */
export interface Resuming {
  /** The port to run the Engine on. */
  readonly effects: EffectPort;
  readonly runId: string;
  /** How the resume went so far: effects answered by the journal, run live, found applied. */
  counts(): { answered: number; live: number; foundApplied: number };
  /** The first divergence from the record, once there is one. */
  readonly divergence: Divergence | undefined;
  /**
   * Records the ending (nothing after a divergence) and closes the journal. Resolves with a
   * warning to print when recording stopped early, else undefined.
   */
  finish(result: RunResult): Promise<string | undefined>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens the journal at `location` and prepares the resume of run `runId` over `inner`: the
 * journaled effects are answered from the record, the rest run live on `inner` and are
 * recorded into the same run. `store` is the run's store directory (its changes get intents
 * and a pending one is checked against the file), or undefined for an in-memory store (rebuilt
 * from the journaled changes). Rejects with the journal's error when it cannot be read, or when
 * another live process records the run (`running`; `force` takes over one of another host).
 */
export async function startResuming(
  location: string,
  runId: string,
  inner: EffectPort,
  store: string | undefined,
  onDivergence: (divergence: Divergence) => void,
  force = false,
): Promise<Resuming> {
  const { createResumePort, openJournal } = await import("@runvil/journal");
  const journal = await openJournal(location);
  let port: ReturnType<typeof createResumePort>;
  let claim: RunClaim | undefined;
  try {
    // Before anything runs: a run another live process records is refused (docs/design/resume.md
    // "A run still recording"), and this process becomes its owner, so a second resume is too.
    claim = await journal.claimRun(runId, { force });
    const [effects, events, intents] = await Promise.all([
      journal.readEffects(runId),
      journal.readEvents(runId),
      journal.readIntents(runId),
    ]);
    port = createResumePort(journal, runId, inner, effects, events, {
      ...(store === undefined
        ? { reapplyStore: true }
        : { fingerprint: directoryFingerprint(store), intents }),
      onDivergence,
    });
  } catch (error) {
    await claim?.release().catch(() => {});
    await journal.close();
    throw error;
  }
  return {
    effects: port.effects,
    runId,
    counts: () => ({ answered: port.answered, live: port.live, foundApplied: port.foundApplied }),
    get divergence() {
      return port.divergence;
    },
    async finish(result: RunResult): Promise<string | undefined> {
      await port.finish(result);
      // Diverged before anything was written: the record is given back exactly as it was.
      if (port.divergence !== undefined) await claim?.release().catch(() => {});
      await journal.close().catch(() => {});
      const failed = port.recordingError;
      if (failed === undefined) return undefined;
      return `${messageOf(failed)} (the run went on; run ${runId}'s record ends before it)`;
    },
  };
}
