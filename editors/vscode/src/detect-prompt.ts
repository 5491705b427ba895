/** How many frontmatter lines are read for `runvil: 0` before giving up. */
const SCANNED_LINES = 200;

/**
 * Whether a Markdown text is a Runvil prompt: its first line is `---` (after an optional BOM)
 * and its frontmatter, up to the closing `---` line, has the top-level key `runvil: 0`, the
 * prompt format version every prompt declares (docs/design/prompt-format.md).
 */
export function isRunvilPrompt(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n?|\n/, SCANNED_LINES);
  if (!/^---[ \t]*$/.test(lines[0] ?? "")) return false;
  for (const line of lines.slice(1)) {
    if (/^---[ \t]*$/.test(line)) return false;
    if (/^runvil[ \t]*:[ \t]*0[ \t]*(#.*)?$/.test(line)) return true;
  }
  return false;
}
