import type { UsesEntry } from "./uses-entry";

/**
 * Finds the Pack id whose second appearance comes first in a uses: list, or undefined when
 * every Pack id appears once. Vendors do not matter: `[web, acme/web]` repeats `web`.
 */
export function findRepeatedPackId(entries: readonly UsesEntry[]): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.packId)) return entry.packId;
    seen.add(entry.packId);
  }
  return undefined;
}

/**
 * The message for a repeated Pack id, without the `invalid frontmatter: ` prefix the parse
 * error adds: `Pack id {id} is declared more than once under uses`.
 */
export function repeatedPackIdMessage(packId: string): string {
  return `Pack id ${packId} is declared more than once under uses`;
}
