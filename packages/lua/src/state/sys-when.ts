/** The first and last instants `sys.when` can show: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z. */
const MIN_MS = -62_167_219_200_000;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/**
 * The text of `sys.when` for a start instant given in milliseconds since 1970-01-01T00:00:00Z
 * (or as a Date): RFC 3339 in UTC, `YYYY-MM-DDTHH:MM:SS[.fff]Z`, every field zero-padded, the
 * millisecond fraction left out on a whole second and otherwise written with its trailing zeros
 * dropped (5 ms gives `.005`, 50 ms `.05`), proleptic Gregorian dates, years 0000 to 9999.
 * Throws a RangeError for an instant that is not a whole millisecond or lies outside those years.
 */
export function formatSysWhen(instant: number | Date): string {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  if (!Number.isInteger(ms) || ms < MIN_MS || ms > MAX_MS) {
    throw new RangeError(
      `sys.when needs a whole-millisecond instant from year 0000 to 9999, got ${String(ms)}`,
    );
  }
  const d = new Date(ms);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  const millis = d.getUTCMilliseconds();
  const fraction = millis === 0 ? "" : `.${pad(millis, 3).replace(/0+$/, "")}`;
  return `${date}T${time}${fraction}Z`;
}
