/** `20 seconds`, `1 second`, or `250 ms` for a time that is not whole seconds. */
export function duration(ms: number): string {
  if (ms % 1000 !== 0) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
}
