/**
 * The chunk name a Lua block is compiled under: `line N`, where N is the block's first Lua line
 * in the prompt file (the line after its opening fence, counting the frontmatter).
 *
 * Lua then names the block `[string "line N"]` in its diagnostics and tracebacks, and that name
 * is what ties an error back to its block. Throws a RangeError unless `firstLine` is an integer
 * of at least 1.
 */
export function chunkNameForLine(firstLine: number): string {
  if (!Number.isSafeInteger(firstLine) || firstLine < 1) {
    throw new RangeError(`a block's first line must be an integer >= 1, got ${firstLine}`);
  }
  return `line ${firstLine}`;
}
