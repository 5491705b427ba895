const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/**
 * Parses a `run.start` instant: UTC, `YYYY-MM-DDTHH:MM:SS[.fff]Z` (up to millisecond precision,
 * years 0000-9999). Returns milliseconds since the Unix epoch, or undefined when the text is
 * not such an instant or names a day or time that does not exist.
 */
export function parseStartInstant(text: string): number | undefined {
  const match = INSTANT.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const millis = Number((match[7] ?? "").padEnd(3, "0"));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  ) {
    return undefined;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date.getTime() : undefined;
}
