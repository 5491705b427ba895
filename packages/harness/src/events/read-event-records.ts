import { readFile } from "node:fs/promises";
import type { RunEventRecord } from "./event-record";

/**
 * The records in JSON Lines `text` as a JsonLinesEventSink writes them, in
 * file order. Blank lines are skipped; a line that is not a `{"seq":N,
 * "event":...}` object throws an Error naming its line number. Events are
 * returned unchecked (`unknown`): the caller validates their shapes.
 */
export function parseEventRecords(text: string): RunEventRecord<unknown>[] {
  const records: RunEventRecord<unknown>[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1}: not JSON`);
    }
    if (
      typeof value !== "object" ||
      value === null ||
      !("seq" in value) ||
      !("event" in value) ||
      typeof value.seq !== "number" ||
      !Number.isSafeInteger(value.seq)
    ) {
      throw new Error(`line ${index + 1}: not an event record ({"seq":N,"event":...})`);
    }
    records.push({ seq: value.seq, event: value.event });
  }
  return records;
}

/** The records of the JSON Lines file at `filePath` (see parseEventRecords). */
export async function readEventRecords(filePath: string): Promise<RunEventRecord<unknown>[]> {
  return parseEventRecords(await readFile(filePath, "utf8"));
}
