import type { BlockRole } from "./types";

/** What role assignment needs to know about one item of a section's content. */
export interface RoleInput {
  kind: "prose" | "block";
}

/**
 * The roles of a section's Lua blocks, one per block in order.
 *
 * With prose in the section: the first block is the `prologue` when it comes before all prose,
 * the last block is the `epilog` when it comes after all prose, and any other block is `lua`
 * (labeled `lua {n}`). Without prose: the first block is the `prologue` and the others are `lua`.
 * So one block with prose on both sides is `lua 1`.
 */
export function sectionRoles(items: readonly RoleInput[]): BlockRole[] {
  const firstProse = items.findIndex((item) => item.kind === "prose");
  const lastProse = findLastIndex(items, (item) => item.kind === "prose");
  const blockPositions: number[] = [];
  items.forEach((item, position) => {
    if (item.kind === "block") blockPositions.push(position);
  });
  return blockPositions.map((position, k): BlockRole => {
    if (firstProse === -1) return k === 0 ? "prologue" : "lua";
    if (k === 0 && position < firstProse) return "prologue";
    if (k === blockPositions.length - 1 && position > lastProse) return "epilog";
    return "lua";
  });
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item !== undefined && test(item)) return i;
  }
  return -1;
}

/** The role as it reads in a label: `prologue`, `epilog`, `lua {index + 1}`, or `lua` (title). */
export function roleText(role: BlockRole, index: number): string {
  switch (role) {
    case "prologue":
    case "epilog":
      return role;
    case "lua":
      return `lua ${index + 1}`;
    case "title":
      return "lua";
  }
}

/**
 * A section block's location label: section `{name}` {role}, or, when another section heading
 * has the same name, section `{name}` (line {headingLine}) {role}.
 */
export function sectionBlockLabel(
  name: string,
  sharedHeadingLine: number | undefined,
  role: BlockRole,
  index: number,
): string {
  const where = sharedHeadingLine === undefined ? "" : ` (line ${sharedHeadingLine})`;
  return `section \`${name}\`${where} ${roleText(role, index)}`;
}

/** The label of every block under the H1 title: H1 `{title}` lua. */
export function titleBlockLabel(title: string): string {
  return `H1 \`${title}\` lua`;
}
