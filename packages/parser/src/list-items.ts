import type { Lines } from "./lines";
import { endLine, type MdNode, startLine } from "./markdown";
import type { ListItem } from "./types";

const TAB_STOP = 4;

/**
 * The items of a root-level mdast `list` node, in order (docs/design/prompt-reads.md). An item's
 * text is its source lines without the marker and without the item's content indentation (the
 * column its first child starts at), trimmed of surrounding whitespace, so nested lists,
 * continuation paragraphs and fences stay in it as Markdown. An item with no content is `''`.
 */
export function listItemsOf(list: MdNode, lines: Lines): ListItem[] {
  const items: ListItem[] = [];
  for (const item of list.children ?? []) {
    if (item.type === "listItem")
      items.push({ text: itemText(item, lines), line: startLine(item) });
  }
  return items;
}

function itemText(item: MdNode, lines: Lines): string {
  const first = item.children?.[0]?.position?.start;
  if (first === undefined) return "";
  const indent = first.column - 1;
  const markerLine = startLine(item);
  const parts: string[] = [];
  // The marker line holds content only when the first child starts on it.
  if (first.line === markerLine) parts.push(lines.at(markerLine).slice(indent));
  for (let n = markerLine + 1; n <= endLine(item); n++) parts.push(dedent(lines.at(n), indent));
  return parts.join("\n").replace(/^[ \t\n]+|[ \t\n]+$/g, "");
}

/**
 * Removes up to `columns` columns of leading spaces and tabs (a tab reaches the next multiple of
 * four); a tab that crosses the limit leaves its remaining columns as spaces, as CommonMark
 * reads a partly consumed tab. A lazy continuation line with less indentation loses all of it.
 */
function dedent(line: string, columns: number): string {
  let column = 0;
  let at = 0;
  while (at < line.length && column < columns) {
    const char = line[at];
    if (char === " ") column++;
    else if (char === "\t") column += TAB_STOP - (column % TAB_STOP);
    else break;
    at++;
  }
  const rest = line.slice(at);
  return column > columns ? " ".repeat(column - columns) + rest : rest;
}
