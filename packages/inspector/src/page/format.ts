/** A duration for people: `850 µs`, `12.3 ms`, `1.25 s`; `-` for none. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "-";
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** An ISO instant as `2026-12-02 00:45:12Z`. */
export function formatInstant(iso: string): string {
  return `${iso.slice(0, 19).replace("T", " ")}Z`;
}

/** An outcome with its error kind: `failed (Lua)`. */
export function outcomeText(outcome: string, errorKind: string | null): string {
  return errorKind === null ? outcome : `${outcome} (${errorKind})`;
}
