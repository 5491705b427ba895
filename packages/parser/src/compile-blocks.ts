import {
  type CompileResult,
  chunkNameForLine,
  formatCompileError,
  type LuaRuntime,
} from "@runvil/lua";
import { type Checked, failed, thrownText } from "./errors";
import type { CompileReport } from "./types";

/** What compiling one block needs. */
export interface BlockToCompile {
  /** The block's Lua source. */
  source: string;
  /** Its first Lua line (the chunk is named `line {firstLine}`). */
  firstLine: number;
  /** Its location label, for the compile error. */
  label: string;
  /** Its section name (the H1 title for a block under the title), for reports. */
  sectionName: string;
  /** True for a block under the H1 title, for reports. */
  underTitle: boolean;
}

/**
 * Compiles every block in the order given (file order) without running any of them, and returns
 * their bytecode in the same order. The first block that does not compile stops the parse with
 * a Lua error whose message is exactly
 * `lua compilation error at {label} (line {firstLine}): {diagnostic}`, carrying the block's
 * source and no line or column. Reports started, then succeeded or failed, for each block tried.
 */
export function compileBlocks(
  lua: LuaRuntime,
  blocks: readonly BlockToCompile[],
  onReport?: (report: CompileReport) => void,
): Checked<Uint8Array[]> {
  const compiled: Uint8Array[] = [];
  for (const block of blocks) {
    const report = (stage: CompileReport["stage"]) =>
      onReport?.({ stage, section: block.sectionName, underTitle: block.underTitle });
    report("started");
    let result: CompileResult;
    try {
      result = lua.compile(block.source, chunkNameForLine(block.firstLine));
    } catch (thrown) {
      result = {
        ok: false,
        diagnostic: `the Lua runtime failed while compiling: ${thrownText(thrown)}`,
      };
    }
    if (result.ok) {
      report("succeeded");
      compiled.push(result.bytecode);
      continue;
    }
    report("failed");
    return failed({
      kind: "Lua",
      message: formatCompileError(block.label, block.firstLine, result.diagnostic),
      source: block.source,
    });
  }
  return { ok: true, value: compiled };
}
