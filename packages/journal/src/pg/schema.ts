/**
 * The PostgreSQL journal's schema, as migrations (the version is kept in `runvil_journal`):
 * migration n takes a journal from version n - 1 to n. A newer journal is refused, never changed.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    prompt_path TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    prompt BYTEA NOT NULL,
    args TEXT NOT NULL,
    seed TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    host TEXT NOT NULL,
    bindings TEXT NOT NULL,
    versions TEXT NOT NULL,
    ended_at BIGINT,
    outcome TEXT,
    error_kind TEXT,
    result TEXT,
    effects INTEGER NOT NULL DEFAULT 0,
    model_rounds INTEGER NOT NULL DEFAULT 0,
    tool_calls INTEGER NOT NULL DEFAULT 0,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
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
    started_us BIGINT NOT NULL,
    duration_us BIGINT NOT NULL,
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
  // 3: resumes (docs/design/resume.md): a run's resume count, and the store intents.
  `ALTER TABLE runs ADD COLUMN resumes INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE store_intents (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    effect TEXT NOT NULL,
    path TEXT NOT NULL,
    before TEXT NOT NULL,
    PRIMARY KEY (run_id, effect)
  );`,
  // 4: the process recording a run (JSON: pid, host, start; cleared with the ending) and when
  // each resume reopened it (docs/design/resume.md).
  `ALTER TABLE runs ADD COLUMN owner TEXT;
  CREATE TABLE resumes (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    resumed_at BIGINT NOT NULL,
    PRIMARY KEY (run_id, n)
  );`,
];

/** The schema version this Runvil writes. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
