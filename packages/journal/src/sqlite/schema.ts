/**
 * The SQLite journal's schema, as migrations: migration n takes a journal from version n - 1 to
 * n (`PRAGMA user_version`). A journal newer than {@link SQLITE_SCHEMA_VERSION} is refused,
 * never changed.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    prompt_path TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    prompt BLOB NOT NULL,
    args TEXT NOT NULL,
    seed TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    host TEXT NOT NULL,
    bindings TEXT NOT NULL,
    versions TEXT NOT NULL,
    ended_at INTEGER,
    outcome TEXT,
    error_kind TEXT,
    result TEXT,
    effects INTEGER NOT NULL DEFAULT 0,
    model_rounds INTEGER NOT NULL DEFAULT 0,
    tool_calls INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    events INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX runs_by_start ON runs (started_at);
  CREATE TABLE effects (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    effect TEXT NOT NULL,
    kind TEXT NOT NULL,
    origin TEXT NOT NULL,
    request TEXT NOT NULL,
    issued INTEGER NOT NULL,
    arrival INTEGER NOT NULL,
    started_us INTEGER NOT NULL,
    duration_us INTEGER NOT NULL,
    output TEXT,
    failure TEXT,
    PRIMARY KEY (run_id, effect)
  );
  CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    chain TEXT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  );`,
  // 2: the event count at each result's arrival (a replay's logical clock).
  "ALTER TABLE effects ADD COLUMN events_before INTEGER NOT NULL DEFAULT 0;",
  // 3: a row per group commit (batch-text.ts; `id` orders a run's batches) instead of a row per
  // effect and per event. Runs recorded before stay in the effects and events tables.
  `CREATE TABLE batches (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    effects INTEGER NOT NULL,
    model_rounds INTEGER NOT NULL,
    tool_calls INTEGER NOT NULL,
    events INTEGER NOT NULL,
    effect_text TEXT NOT NULL,
    event_text TEXT NOT NULL
  );
  CREATE INDEX batches_of_run ON batches (run_id);`,
  // 4: resumes (docs/design/resume.md): a run's resume count, and the store intents.
  `ALTER TABLE runs ADD COLUMN resumes INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE store_intents (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    effect TEXT NOT NULL,
    path TEXT NOT NULL,
    before TEXT NOT NULL,
    PRIMARY KEY (run_id, effect)
  );`,
  // 5: the process recording a run (JSON: pid, host, start; cleared with the ending) and when
  // each resume reopened it (docs/design/resume.md).
  `ALTER TABLE runs ADD COLUMN owner TEXT;
  CREATE TABLE resumes (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    resumed_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, n)
  );`,
];

/** The schema version this Runvil writes. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

/** `PRAGMA application_id` of a Runvil journal ("RVJN"), so another SQLite file is told apart. */
export const JOURNAL_APPLICATION_ID = 0x52564a4e;
