import { createRequire } from "node:module";
import type * as Pg from "pg";

let loaded: typeof Pg | undefined;

/**
 * The pg client module, loaded at the first call: a process that opens no PostgreSQL pool or
 * client never loads it (a run recorded in SQLite, `runvil check`).
 */
export function loadPg(): typeof Pg {
  loaded ??= createRequire(import.meta.url)("pg") as typeof Pg;
  return loaded;
}
