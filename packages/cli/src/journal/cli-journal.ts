import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { findHostConfig, readHostConfig } from "@runvil/host";
import type { Journal } from "@runvil/journal";
import { displayLocation, JOURNAL_ENV, journalLocation } from "./journal-location";

/** The journal a `runvil runs` or `runvil replay` command reads, or why there is none. */
export type CliJournal =
  | {
      readonly ok: true;
      readonly journal: Journal;
      readonly shown: string;
      /** Where it is: the file's path or the database URL, as opened. */
      readonly location: string;
    }
  /** No journal there yet: nothing was recorded. */
  | { readonly ok: false; readonly missing: string }
  | { readonly ok: false; readonly error: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Finds and opens the journal that `runvil run` records into from `folder` (default: the
 * working directory): `--journal`, RUNVIL_JOURNAL, the nearest runvil.config.json's `journal`,
 * else `.runvil/runs.db` of the project folder (docs/design/journal.md). A journal file that does
 * not exist is reported as missing and is not created.
 */
export async function openCliJournal(
  flag: string | undefined,
  folder?: string,
): Promise<CliJournal> {
  const cwd = process.cwd();
  const base = folder === undefined ? cwd : resolve(cwd, folder);
  let location: string | undefined;
  try {
    const configFile = flag === undefined ? await findHostConfig(base) : undefined;
    location = journalLocation({
      ...(flag === undefined ? {} : { flag }),
      ...(process.env[JOURNAL_ENV] === undefined ? {} : { env: process.env[JOURNAL_ENV] }),
      ...(configFile === undefined
        ? {}
        : { config: { file: configFile, journal: readHostConfig(configFile).journal } }),
      cwd: base,
    });
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
  if (location === undefined) {
    return {
      ok: false,
      error: `recording is off here (${JOURNAL_ENV}=off, or "journal": false in runvil.config.json); name a journal with --journal FILE`,
    };
  }
  const shown = displayLocation(location, cwd);
  const { isPgUrl, openJournal } = await import("@runvil/journal");
  if (!isPgUrl(location) && !existsSync(location)) return { ok: false, missing: shown };
  try {
    const journal = await openJournal(location);
    return { ok: true, journal, shown, location };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}
