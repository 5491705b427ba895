import { frontmatterError } from "./errors";
import type { Lines } from "./lines";
import type { PromptParseError } from "./types";

/** Where the frontmatter sits: between the `---` on line 1 and the closing `---`. */
export interface FrontmatterFence {
  /** Line of the closing `---`. */
  closeLine: number;
  /** The YAML between the fences, one `\n` after each line; its line 1 is file line 2. */
  yaml: string;
}

/** A fence line: three dashes, then only spaces or tabs (the rule remark-frontmatter uses). */
const FENCE = /^---[ \t]*$/;

/**
 * Finds the frontmatter: line 1 must be `---` and a later `---` line closes it. Never throws.
 */
export function findFrontmatter(
  lines: Lines,
): { ok: true; fence: FrontmatterFence } | { ok: false; error: PromptParseError } {
  if (!FENCE.test(lines.at(1)) || lines.count < 1) {
    return {
      ok: false,
      error: frontmatterError(
        "a prompt must start with YAML frontmatter: `---` on line 1, then `name`, `description` and `runvil: 0`, then `---`",
        1,
      ),
    };
  }
  for (let n = 2; n <= lines.count; n++) {
    if (FENCE.test(lines.at(n))) {
      const yaml = n > 2 ? `${lines.slice(2, n - 1)}\n` : "";
      return { ok: true, fence: { closeLine: n, yaml } };
    }
  }
  return {
    ok: false,
    error: frontmatterError("the frontmatter opened on line 1 is never closed with `---`", 1),
  };
}
