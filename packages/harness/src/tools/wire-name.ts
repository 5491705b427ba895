const WIRE_SEPARATORS = /[/.]/g;

/**
 * The wire name of a tool id (`web/fetch` → `web_fetch`): each `/` and `.` becomes `_`. The
 * same transform as `toWireName` of `@runvil/names`, which the Harness does not depend on; the
 * tool failure messages start with it.
 */
export function wireNameOf(toolId: string): string {
  return toolId.replace(WIRE_SEPARATORS, "_");
}
