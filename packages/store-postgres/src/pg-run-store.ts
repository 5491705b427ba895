import { randomUUID } from "node:crypto";
import {
  anchorNotFound,
  anchorNotUnique,
  compileGlob,
  editArguments,
  fileIsTooLarge,
  fileWouldBeTooLarge,
  invalidUtf8File,
  ioError,
  isDirectory,
  isFileNotDirectory,
  notFound,
  parentIsFile,
  parseStorePath,
  replaceAnchor,
  SerialQueue,
  type StoreLimits,
  type StoreOperationName,
  type StorePath,
  storeWouldBeTooLarge,
  textArgument,
  textAsBytes,
} from "@runvil/harness/store-kit";
import { errorCode } from "@runvil/pg-kit";
import type { StoreOperation, StoreOutput } from "@runvil/protocol";
import { type RunStore, StoreError, type StoreFailure, type StoreText } from "@runvil/sdk";
import type * as Pg from "pg";
import { type RetryPolicy, retryWhileUnreachable } from "./retry";
import { toBuffer } from "./seed-files";
import {
  ALL_PATHS,
  ANY_BELOW,
  APPLIED,
  FINISH_APPEND,
  FINISH_DELETE,
  FINISH_WRITE,
  IS_FILE,
  LOCK_RUN,
  PATHS_IN_RANGE,
  PROBE,
  READ_FILE,
  RECORD_FAILURE,
  rangeEnd,
} from "./store-sql";

/** What a PgRunStore shares with its database: the pool, the retry policy, where it is. */
export interface PgStoreContext {
  readonly pool: Pg.Pool;
  readonly location: string;
  readonly retry: RetryPolicy;
  /** Hears each lost connection while an operation waits for the server. */
  readonly onUnreachable: ((message: string) => void) | undefined;
}

/** A file found by the probe of a mutating operation. */
interface ProbedFile {
  readonly bytes: number;
  readonly validUpTo: number | null;
  readonly contents: Buffer | null;
}

/** What a mutating operation found under the run's lock. */
interface Probe {
  /** The target and its ancestors that are files. */
  readonly files: ReadonlyMap<string, ProbedFile>;
  /** Whether some file lies below the target (it is a directory). */
  readonly directory: boolean;
  /** The bytes the whole store holds. */
  readonly usedBytes: number;
}

/** The change a mutating operation makes, once its checks passed. */
interface Change {
  readonly sql: string;
  readonly contents?: Buffer;
  readonly bytes?: number;
  /** The store's byte total afterwards. */
  readonly usedBytes: number;
}

interface ProbeRow {
  readonly path: string | null;
  readonly bytes: string | null;
  readonly valid_up_to: string | null;
  readonly contents: Buffer | null;
}

/** The directories containing `target`, outermost first (`a`, `a/b` for `a/b/c`). */
function ancestors(target: StorePath): string[] {
  const result: string[] = [];
  let prefix = "";
  for (const segment of target.segments.slice(0, -1)) {
    prefix = prefix === "" ? segment : `${prefix}/${segment}`;
    result.push(prefix);
  }
  return result;
}

const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/** The StoreError recorded for an operation key, as JSON. */
function encodeFailure(error: StoreError): string {
  const failure: StoreFailure = {
    reason: error.reason,
    path: error.path,
    message: error.message,
    ...(error.count === undefined ? {} : { count: error.count }),
    ...(error.validUpTo === undefined ? {} : { validUpTo: error.validUpTo }),
  };
  return JSON.stringify(failure);
}

/**
 * The store of one run in PostgreSQL (docs/design/durable-store.md). Operations apply in the
 * order they are called; each mutating one is a transaction under the run's row lock, so
 * several processes holding a store of the same run never lose a change. Each one commits with a
 * record of its operation key, so trying it again after a lost connection (or, through
 * {@link applyOnce}, after a crash) never applies it twice.
 */
export class PgRunStore implements RunStore {
  /** The run whose files these are. */
  readonly runId: string;
  /** The size limits in force. */
  readonly limits: StoreLimits;
  readonly #context: PgStoreContext;
  readonly #queue = new SerialQueue();

  constructor(context: PgStoreContext, runId: string, limits: StoreLimits) {
    this.#context = context;
    this.runId = runId;
    this.limits = limits;
  }

  read(path: StoreText): Promise<string> {
    return this.#queue.run(() => this.#read(parseStorePath(path)));
  }

  write(path: StoreText, contents: StoreText): Promise<void> {
    return this.#queue.run(() => this.#write(randomKey(), path, contents));
  }

  append(path: StoreText, text: StoreText): Promise<void> {
    return this.#queue.run(() => this.#append(randomKey(), path, text));
  }

  edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    return this.#queue.run(() => this.#edit(randomKey(), path, oldText, newText));
  }

  delete(path: StoreText): Promise<void> {
    return this.#queue.run(() => this.#delete(randomKey(), path));
  }

  exists(path: StoreText): Promise<boolean> {
    return this.#queue.run(async () => {
      const target = parseStorePath(path);
      const rows = await this.#query("exists", target.path, IS_FILE, [this.runId, target.path]);
      return rows.length > 0;
    });
  }

  list(prefix?: StoreText): Promise<string[]> {
    return this.#queue.run(() => this.#list(prefix));
  }

  glob(pattern: StoreText): Promise<string[]> {
    return this.#queue.run(() => this.#glob(pattern));
  }

  async #glob(pattern: StoreText): Promise<string[]> {
    {
      const matcher = compileGlob(pattern);
      const max = matcher.maxSegments;
      const paths =
        matcher.literalPrefix.length === 0
          ? await this.#paths("glob", matcher.pattern, undefined)
          : await this.#paths("glob", matcher.pattern, matcher.literalPrefix.join("/"));
      return paths.filter((path) => {
        const segments = path.split("/");
        return (max === undefined || segments.length <= max) && matcher.matches(segments);
      });
    }
  }

  /**
   * Performs `operation` once for the key `key` (an effect id): when an operation with this key
   * already committed (a step tried again after a crash or a lost connection), answers what it
   * answered then (nothing, or its StoreError) without applying it again. Reads, which change
   * nothing, simply run.
   */
  applyOnce<O extends StoreOperation>(key: string, operation: O): Promise<StoreOutput<O["op"]>> {
    return this.#queue.run(async () => {
      const output = await this.#applyKeyed(key, operation);
      return output as StoreOutput<O["op"]>;
    });
  }

  async #applyKeyed(
    key: string,
    operation: StoreOperation,
  ): Promise<StoreOutput<StoreOperation["op"]>> {
    switch (operation.op) {
      case "read":
        return this.#read(parseStorePath(operation.path));
      case "write":
        await this.#write(key, operation.path, operation.contents);
        return undefined;
      case "append":
        await this.#append(key, operation.path, operation.text);
        return undefined;
      case "edit":
        await this.#edit(key, operation.path, operation.old, operation.new);
        return undefined;
      case "delete":
        await this.#delete(key, operation.path);
        return undefined;
      case "exists": {
        const target = parseStorePath(operation.path);
        const rows = await this.#query("exists", target.path, IS_FILE, [this.runId, target.path]);
        return rows.length > 0;
      }
      case "list":
        return this.#list(operation.prefix);
      case "glob":
        return this.#glob(operation.pattern);
    }
  }

  async #read(target: StorePath): Promise<string> {
    const rows = await this.#query<ProbeRow>("read", target.path, READ_FILE, [
      this.runId,
      target.path,
    ]);
    const row = rows[0];
    if (row === undefined) {
      const below = await this.#query("read", target.path, ANY_BELOW, [
        this.runId,
        `${target.path}/`,
        rangeEnd(target.path),
      ]);
      throw below.length > 0 ? isDirectory(target.path) : notFound(target.path);
    }
    const file = probedFile(row);
    this.#checkReadable(target, file);
    return DECODER.decode(file.contents ?? Buffer.alloc(0));
  }

  #write(key: string, path: StoreText, contents: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const text = textArgument(target.path, "contents", contents);
    this.#checkFileLimit(target, text.byteLength);
    return this.#mutate("write", key, target, false, (probe) => {
      this.#checkCreate(target, probe);
      const bytes = text.byteLength;
      return {
        sql: FINISH_WRITE,
        contents: toBuffer(textAsBytes(text)),
        bytes,
        usedBytes: this.#total(target, probe, bytes),
      };
    });
  }

  #append(key: string, path: StoreText, text: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const added = textArgument(target.path, "text", text);
    return this.#mutate("append", key, target, false, (probe) => {
      this.#checkCreate(target, probe);
      const existing = probe.files.get(target.path);
      if (existing !== undefined) this.#checkReadable(target, existing);
      const bytes = (existing?.bytes ?? 0) + added.byteLength;
      this.#checkFileLimit(target, bytes);
      return {
        sql: FINISH_APPEND,
        contents: toBuffer(textAsBytes(added)),
        bytes: added.byteLength,
        usedBytes: this.#total(target, probe, bytes),
      };
    });
  }

  #edit(key: string, path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const { anchor, replacement } = editArguments(target.path, oldText, newText);
    return this.#mutate("edit", key, target, true, (probe) => {
      const file = this.#lookup(target, probe);
      this.#checkReadable(target, file);
      const edit = replaceAnchor(
        DECODER.decode(file.contents ?? Buffer.alloc(0)),
        anchor,
        replacement,
      );
      if (!edit.ok) {
        throw edit.count === 0
          ? anchorNotFound(target.path)
          : anchorNotUnique(target.path, edit.count);
      }
      const contents = Buffer.from(edit.text, "utf8");
      this.#checkFileLimit(target, contents.byteLength);
      return {
        sql: FINISH_WRITE,
        contents,
        bytes: contents.byteLength,
        usedBytes: this.#total(target, probe, contents.byteLength),
      };
    });
  }

  #delete(key: string, path: StoreText): Promise<void> {
    const target = parseStorePath(path);
    return this.#mutate("delete", key, target, false, (probe) => {
      const file = this.#lookup(target, probe);
      return { sql: FINISH_DELETE, usedBytes: probe.usedBytes - file.bytes };
    });
  }

  async #list(prefix: StoreText | undefined): Promise<string[]> {
    if (prefix === undefined) return this.#paths("list", "", undefined);
    const directory = parseStorePath(prefix);
    const file = await this.#query("list", directory.path, IS_FILE, [this.runId, directory.path]);
    if (file.length > 0) throw isFileNotDirectory(directory.path);
    return this.#paths("list", directory.path, directory.path);
  }

  /** The paths below `directory` (every path when undefined), in bytewise order. */
  async #paths(
    operation: StoreOperationName,
    shown: string,
    directory: string | undefined,
  ): Promise<string[]> {
    const rows =
      directory === undefined
        ? await this.#query<{ path: string }>(operation, shown, ALL_PATHS, [this.runId])
        : await this.#query<{ path: string }>(operation, shown, PATHS_IN_RANGE, [
            this.runId,
            `${directory}/`,
            rangeEnd(directory),
          ]);
    return rows.map((row) => row.path);
  }

  /** The file at `target` from the probe; `not_found` when absent, `not_a_file` for a directory. */
  #lookup(target: StorePath, probe: Probe): ProbedFile {
    const file = probe.files.get(target.path);
    if (file !== undefined) return file;
    if (probe.directory) throw isDirectory(target.path);
    throw notFound(target.path);
  }

  /** `too_large` over the file limit, `invalid_utf8` for a file that is not UTF-8. */
  #checkReadable(target: StorePath, file: ProbedFile): void {
    if (file.bytes > this.limits.maxFileBytes) {
      throw fileIsTooLarge(target.path, file.bytes, this.limits.maxFileBytes);
    }
    if (file.validUpTo !== null) throw invalidUtf8File(target.path, file.validUpTo);
  }

  /** `not_a_file` unless a file could be created at `target`. */
  #checkCreate(target: StorePath, probe: Probe): void {
    for (const directory of ancestors(target)) {
      if (probe.files.has(directory)) throw parentIsFile(target.path, directory);
    }
    if (probe.directory) throw isDirectory(target.path);
  }

  /** `too_large` when a file of `bytes` would pass the file limit. */
  #checkFileLimit(target: StorePath, bytes: number): void {
    if (bytes > this.limits.maxFileBytes) {
      throw fileWouldBeTooLarge(target.path, bytes, this.limits.maxFileBytes);
    }
  }

  /** The store's total once `target` holds `bytes`; `too_large` over the store limit. */
  #total(target: StorePath, probe: Probe, bytes: number): number {
    const total = probe.usedBytes - (probe.files.get(target.path)?.bytes ?? 0) + bytes;
    if (total > this.limits.maxStoreBytes) {
      throw storeWouldBeTooLarge(target.path, total, this.limits.maxStoreBytes);
    }
    return total;
  }

  /**
   * One mutating operation as a transaction, tried again while the server is unreachable: lock
   * the run's row, answer from the record when `key` already committed, probe the target, let
   * `decide` check and describe the change (or throw its StoreError, which is recorded too),
   * then apply it with the record of `key`.
   */
  #mutate(
    operation: StoreOperationName,
    key: string,
    target: StorePath,
    withContents: boolean,
    decide: (probe: Probe) => Change,
  ): Promise<void> {
    return this.#retrying(operation, target.path, async () => {
      const client = await this.#context.pool.connect();
      // A connection lost between two statements is seen at the next one (and the client dropped).
      const ignore = (): void => {};
      client.on("error", ignore);
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const locked = await client.query<{ used_bytes: string }>(LOCK_RUN, [
          this.runId,
          Date.now(),
        ]);
        const applied = await client.query<{ failure: string | null }>(APPLIED, [this.runId, key]);
        const recorded = applied.rows[0];
        if (recorded !== undefined) {
          await client.query("COMMIT");
          if (recorded.failure !== null) {
            throw new StoreError(JSON.parse(recorded.failure) as StoreFailure);
          }
          return;
        }
        const probe = await this.#probe(
          client,
          target,
          withContents,
          Number(locked.rows[0]?.used_bytes ?? 0),
        );
        let change: Change;
        try {
          change = decide(probe);
        } catch (error) {
          if (!StoreError.isInstance(error)) throw error;
          await client.query(RECORD_FAILURE, [this.runId, key, encodeFailure(error)]);
          await client.query("COMMIT");
          throw error;
        }
        const values: unknown[] = [this.runId, key, change.usedBytes, target.path];
        if (change.contents !== undefined) values.push(change.contents, change.bytes);
        await client.query(change.sql, values);
        await client.query("COMMIT");
      } catch (error) {
        if (!StoreError.isInstance(error)) {
          broken = error instanceof Error ? error : new Error(String(error));
          await client.query("ROLLBACK").catch(() => {});
        }
        throw error;
      } finally {
        client.off("error", ignore);
        client.release(broken);
      }
    });
  }

  async #probe(
    client: Pg.PoolClient,
    target: StorePath,
    withContents: boolean,
    usedBytes: number,
  ): Promise<Probe> {
    const rows = await client.query<ProbeRow>(PROBE, [
      this.runId,
      [...ancestors(target), target.path],
      `${target.path}/`,
      withContents,
      target.path,
      rangeEnd(target.path),
    ]);
    const files = new Map<string, ProbedFile>();
    let directory = false;
    for (const row of rows.rows) {
      if (row.path === null) directory = true;
      else files.set(row.path, probedFile(row));
    }
    return { files, directory, usedBytes };
  }

  /** One statement outside a transaction, tried again while the server is unreachable. */
  async #query<R extends Pg.QueryResultRow>(
    operation: StoreOperationName,
    path: string,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    return this.#retrying(
      operation,
      path,
      async () => (await this.#context.pool.query<R>(text, values)).rows,
    );
  }

  /**
   * `attempt`, tried again while the server is unreachable (the retry policy); a failure of the
   * database itself becomes `io_error` naming the operation and the error code.
   */
  async #retrying<T>(
    operation: StoreOperationName,
    path: string,
    attempt: () => Promise<T>,
  ): Promise<T> {
    try {
      return await retryWhileUnreachable(attempt, this.#context.retry, (error, tries) => {
        this.#context.onUnreachable?.(
          `store ${operation} of run ${this.runId}: ${this.#context.location} is unreachable (${errorCode(error) || (error instanceof Error ? error.message : String(error))}); trying again (${tries})`,
        );
      });
    } catch (error) {
      if (StoreError.isInstance(error) || error instanceof RangeError) throw error;
      throw Object.assign(ioError(path, operation, errorCode(error) || "database"), {
        cause: error,
      });
    }
  }
}

/** A fresh key for an operation that comes with none: its tries after a lost connection share it. */
function randomKey(): string {
  return `local:${randomUUID()}`;
}

function probedFile(row: ProbeRow): ProbedFile {
  return {
    bytes: Number(row.bytes ?? 0),
    validUpTo: row.valid_up_to === null ? null : Number(row.valid_up_to),
    contents: row.contents,
  };
}
