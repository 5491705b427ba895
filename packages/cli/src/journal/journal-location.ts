import { dirname, isAbsolute, join, relative, resolve } from "node:path";

/** The environment variable that names the journal (`off`: record nothing by default). */
export const JOURNAL_ENV = "RUNVIL_JOURNAL";

/** The journal file in a project folder: `.runvil/runs.db`. */
export const DEFAULT_JOURNAL_FILE = join(".runvil", "runs.db");

/** What decides where runs are recorded, highest first. */
export interface JournalSources {
  /** `--journal FILE|URL`. */
  readonly flag?: string;
  /** The RUNVIL_JOURNAL environment variable. */
  readonly env?: string;
  /** The configuration file that applies (absent: none) and its `journal` key. */
  readonly config?: { readonly file: string; readonly journal: string | false | undefined };
  /** The working directory (the project folder when there is no configuration file). */
  readonly cwd: string;
}

function isUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Where runs are recorded (docs/design/journal.md): `--journal`, else RUNVIL_JOURNAL (`off`
 * or empty: nowhere), else the configuration file's `journal` (a path relative to the file, a
 * PostgreSQL URL, or `false`: nowhere), else `.runvil/runs.db` beside the configuration file,
 * else in the working directory. Undefined: record nothing.
 */
export function journalLocation(sources: JournalSources): string | undefined {
  if (sources.flag !== undefined) {
    return isUrl(sources.flag) ? sources.flag : resolve(sources.cwd, sources.flag);
  }
  if (sources.env !== undefined) {
    if (sources.env === "" || sources.env === "off") return undefined;
    return isUrl(sources.env) ? sources.env : resolve(sources.cwd, sources.env);
  }
  const config = sources.config;
  if (config !== undefined) {
    const folder = dirname(resolve(sources.cwd, config.file));
    if (config.journal === false) return undefined;
    if (config.journal !== undefined) {
      return isUrl(config.journal) ? config.journal : resolve(folder, config.journal);
    }
    return join(folder, DEFAULT_JOURNAL_FILE);
  }
  return join(sources.cwd, DEFAULT_JOURNAL_FILE);
}

/** A journal location for messages: a file inside the working directory relative to it. */
export function displayLocation(location: string, cwd: string): string {
  if (isUrl(location) || !isAbsolute(location)) return location;
  const inside = relative(cwd, location);
  return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : location;
}
