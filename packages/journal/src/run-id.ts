import { randomBytes } from "node:crypto";

const pad = (value: number, width = 2): string => String(value).padStart(width, "0");

/**
 * A new run id: the start instant in UTC and 6 random hex digits, `20261202-004512-a3f9c1`, so
 * ids sort by start and a prefix such as `20261202-0045` names the runs of one minute.
 */
export function newRunId(startedAt: number): string {
  const at = new Date(startedAt);
  const day = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;
  return `${day}-${time}-${randomBytes(3).toString("hex")}`;
}

/** Whether `text` can be (a prefix of) a run id: digits, `-` and lowercase hex only. */
export function isRunIdText(text: string): boolean {
  return /^[0-9a-f-]{1,64}$/.test(text);
}
