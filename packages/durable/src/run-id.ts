import { randomBytes } from "node:crypto";

/**
 * A new run id in the journal's format, `{yyyymmdd}-{hhmmss}-{6 hex}` in UTC: sortable by start,
 * and a durable run and its journal record can share it.
 */
export function newRunId(at: number = Date.now()): string {
  const iso = new Date(at).toISOString(); // 2026-12-02T00:45:12.000Z
  const day = iso.slice(0, 10).replaceAll("-", "");
  const time = iso.slice(11, 19).replaceAll(":", "");
  return `${day}-${time}-${randomBytes(3).toString("hex")}`;
}
