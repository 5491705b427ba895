import { applyStoreOperation, MemoryStore, readAllFiles } from "@runvil/harness";
import { decodeValue, type EffectRecord, encodeValue, recordFailure } from "@runvil/journal";
import type { StoreOperation } from "@runvil/protocol";
import { cannotExport, effectName } from "./export-error";

/** The store a scenario starts from (`store`) and the one it expects after the run (`expect.store`). */
export interface ExportedStore {
  readonly initial: Readonly<Record<string, string>>;
  readonly final: Readonly<Record<string, string>>;
}

/** A file the run saw exist (listed, `exists`, deleted) before it changed it, but never read. */
const UNREAD = Symbol("unread");
/** A path the run saw absent before it changed it. */
const ABSENT = Symbol("absent");

type Known = string | typeof UNREAD | typeof ABSENT;

function textOf(runId: string, record: EffectRecord, value: unknown): string {
  if (typeof value === "string") return value;
  return cannotExport(
    runId,
    `${effectName(record)}: a store path or text that is not UTF-8 text (the raw bytes of a Lua string); a scenario's store holds text only`,
  );
}

function pathOf(
  runId: string,
  record: EffectRecord,
  operation: StoreOperation,
): string | undefined {
  return "path" in operation ? textOf(runId, record, operation.path) : undefined;
}

/**
 * Works out the files the store held before the run from what the run observed of them, in
 * arrival order: a file read before the run changed it held what the read answered; one the run
 * saw exist (a listing, `exists`, a delete) but never read holds "" (the run never saw its
 * text); one it edited first held the edit's old text; one it appended to and then read held
 * the read's text without what was appended; a path it found absent, or changed without
 * looking, held nothing. An in-memory store (no `--store`) started empty.
 */
function initialFiles(
  runId: string,
  stores: readonly { record: EffectRecord; operation: StoreOperation }[],
): Record<string, string> {
  const known = new Map<string, Known>();
  const changed = new Set<string>();
  // Paths the run only appended to so far, with the text appended: a later read shows what the
  // file held before (the read's text without the appended end).
  const appended = new Map<string, string>();
  const saw = (path: string, what: Known): void => {
    const added = appended.get(path);
    if (added !== undefined && typeof what === "string") {
      appended.delete(path);
      if (!known.has(path) && what.endsWith(added)) {
        known.set(path, what.slice(0, what.length - added.length));
      }
      return;
    }
    if (changed.has(path)) return;
    const before = known.get(path);
    if (before === undefined || (before === UNREAD && typeof what === "string")) {
      known.set(path, what);
    }
  };
  for (const { record, operation } of stores) {
    const path = pathOf(runId, record, operation);
    const ok = record.failure === undefined;
    const output = ok && record.output !== undefined ? decodeValue(record.output) : undefined;
    if (!ok) {
      if (path !== undefined && record.failure?.type === "store") {
        if (record.failure.reason === "not_found") saw(path, ABSENT);
      }
      continue;
    }
    switch (operation.op) {
      case "read":
        saw(path as string, textOf(runId, record, output));
        break;
      case "exists":
        saw(path as string, output === true ? UNREAD : ABSENT);
        break;
      case "list":
      case "glob":
        for (const listed of Array.isArray(output) ? output : []) {
          if (typeof listed === "string") saw(listed, UNREAD);
        }
        break;
      case "edit":
        appended.delete(path as string);
        saw(path as string, textOf(runId, record, operation.old));
        changed.add(path as string);
        break;
      case "delete":
        saw(path as string, UNREAD);
        appended.delete(path as string);
        changed.add(path as string);
        break;
      case "append":
        if (!changed.has(path as string) || appended.has(path as string)) {
          appended.set(
            path as string,
            (appended.get(path as string) ?? "") + textOf(runId, record, operation.text),
          );
        }
        changed.add(path as string);
        break;
      case "write":
        appended.delete(path as string);
        changed.add(path as string);
        break;
    }
  }
  const files: Record<string, string> = {};
  for (const [path, what] of [...known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (what === ABSENT) continue;
    files[path] = what === UNREAD ? "" : what;
  }
  return files;
}

/**
 * The run's store for its scenario: the files before the run (from what it observed, above),
 * checked by performing every recorded store operation on a MemoryStore holding them — each
 * must answer exactly as recorded, else the export is refused naming the effect — and the files
 * after the run that store then holds.
 */
export async function exportStore(
  runId: string,
  effects: readonly EffectRecord[],
  persistent: boolean,
): Promise<ExportedStore> {
  const stores = effects
    .filter((record) => record.kind === "store")
    .sort((a, b) => a.arrival - b.arrival)
    .map((record) => ({ record, operation: decodeValue(record.request) as StoreOperation }));
  for (const { record, operation } of stores) {
    pathOf(runId, record, operation);
    if (operation.op === "write") textOf(runId, record, operation.contents);
    if (operation.op === "append") textOf(runId, record, operation.text);
    if (operation.op === "edit") textOf(runId, record, operation.new);
  }
  const initial = persistent ? initialFiles(runId, stores) : {};
  const store = new MemoryStore({ files: initial });
  for (const { record, operation } of stores) {
    // Compared as the journal's sorted encoding: the same answer is the same text.
    let answer: string;
    try {
      answer = `output ${encodeValue(await applyStoreOperation(store, operation))}`;
    } catch (error) {
      answer = `failure ${encodeValue(recordFailure(error))}`;
    }
    const recorded =
      record.failure === undefined
        ? `output ${encodeValue(record.output === undefined ? undefined : decodeValue(record.output))}`
        : `failure ${encodeValue(record.failure)}`;
    if (answer !== recorded) {
      cannotExport(
        runId,
        `${effectName(record, operation.op)}: the store a scenario can start from (the files the run read or saw) does not answer it as recorded (recorded ${recorded}; the scenario's store gives ${answer})`,
      );
    }
  }
  return { initial, final: await readAllFiles(store) };
}
