import {
  findRepeatedPackId,
  invalidUsesEntryMessage,
  parseUsesEntry,
  repeatedPackIdMessage,
  USES_ENTRY_NOT_STRING,
} from "@runvil/names";
import { isSeq } from "yaml";
import { atLineColumn, type Checked, FRONTMATTER_PREFIX, failed, frontmatterError } from "./errors";
import type { UsesDeclaration } from "./types";
import { describeNode, positionOf, resolveNode, stringValue, type YamlSource } from "./yaml-nodes";

/**
 * Checks the value of `uses:`: a YAML list (flow or block) of plain string entries, each a Pack
 * id or vendor/name, with no Pack id twice. Entries keep their order.
 *
 * Errors, checked in this order:
 * - not a list: `invalid frontmatter: \`uses\` must be a list ..., found {kind} (line N)`;
 * - the first malformed entry, in list order: a non-string gives
 *   `invalid frontmatter: uses entry {i} is {kind}: expected a Pack id, ... (line L, column C)`,
 *   a bad string `invalid frontmatter: invalid uses entry \`{text}\`: {reason} (line L, column C)`;
 * - a repeated Pack id: `invalid frontmatter: Pack id {id} is declared more than once under uses`,
 *   with no line or column, naming the Pack id whose second appearance comes first.
 */
export function checkUses(
  source: YamlSource,
  value: unknown,
  keyLine: number,
): Checked<UsesDeclaration[]> {
  const list = resolveNode(source, value);
  if (list === undefined || !isSeq(list)) {
    const line = list === undefined ? keyLine : positionOf(source, list).line;
    return failed(
      frontmatterError(
        `\`uses\` must be a list of Pack ids, such as \`uses: [web]\`, found ${describeNode(list)}`,
        line,
      ),
    );
  }
  const entries: UsesDeclaration[] = [];
  for (let i = 0; i < list.items.length; i++) {
    const raw = list.items[i];
    const { line, column } = positionOf(source, raw);
    const node = resolveNode(source, raw);
    const text = stringValue(node);
    if (text === undefined) {
      return entryError(
        `uses entry ${i + 1} is ${describeNode(node)}: ${USES_ENTRY_NOT_STRING}`,
        line,
        column,
      );
    }
    const parsed = parseUsesEntry(text);
    if (!parsed.ok) return entryError(invalidUsesEntryMessage(text, parsed.reason), line, column);
    entries.push({ ...parsed.value, line, column });
  }
  const repeated = findRepeatedPackId(entries);
  if (repeated !== undefined) {
    return failed({
      kind: "Frontmatter",
      message: FRONTMATTER_PREFIX + repeatedPackIdMessage(repeated),
    });
  }
  return { ok: true, value: entries };
}

/** A malformed entry: the chapter's text intact, then ` (line L, column C)`. */
function entryError(message: string, line: number, column: number): Checked<never> {
  return failed({
    kind: "Frontmatter",
    message: atLineColumn(FRONTMATTER_PREFIX + message, line, column),
    line,
    column,
  });
}
