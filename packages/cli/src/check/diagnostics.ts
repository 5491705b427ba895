import type { Prompt, PromptParseError } from "@runvil/parser";

/** How bad a diagnostic is, in the words editors use (LSP, VS Code problem matchers). */
export type DiagnosticSeverity = "error" | "warning" | "information";

/**
 * One problem of `runvil check --json`, in the form editors consume: 1-based `line` and
 * `column`; `endLine`/`endColumn` (1-based, the column just after the last character) when the
 * problem covers a known span.
 */
export interface CheckDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  severity: DiagnosticSeverity;
  message: string;
  /** The error kind: `Encoding`, `Frontmatter`, `Markdown`, `Lua`, `File`, `Host`, `RequirementsUnmet`. */
  code: string;
}

/** The span of a line's written text (from its first to its last non-blank character). */
function lineSpan(
  text: string | undefined,
  line: number,
  from?: number,
): Pick<CheckDiagnostic, "line" | "column" | "endLine" | "endColumn"> {
  const content = text?.split("\n")[line - 1];
  if (content === undefined) return { line, column: from ?? 1 };
  const trimmedEnd = content.trimEnd().length;
  const start = from ?? content.length - content.trimStart().length + 1;
  if (trimmedEnd < start) return { line, column: start };
  return { line, column: start, endLine: line, endColumn: trimmedEnd + 1 };
}

/** `[string "line 14"]:2:` in a Lua compile message: the absolute line 14 + 2 - 1. */
const LUA_POSITION = /\[string "line (\d+)"\]:(\d+):/;
/** The ` (line N)` most parse messages carry. */
const MESSAGE_LINE = /\(line (\d+)\)/;

/** The diagnostic of a parse error, at its line (a Lua error: the failing line of its block). */
export function parseErrorDiagnostic(
  file: string,
  error: PromptParseError,
  text?: string,
): CheckDiagnostic {
  let line = error.line;
  if (line === undefined) {
    const lua = LUA_POSITION.exec(error.message);
    const named = MESSAGE_LINE.exec(error.message);
    if (lua !== null) line = Number(lua[1]) + Number(lua[2]) - 1;
    else if (named !== null) line = Number(named[1]);
  }
  const span = lineSpan(text, line ?? 1, error.column);
  return { file, ...span, severity: "error", message: error.message, code: error.kind };
}

/** A problem of the whole file (it cannot be read, its Host cannot be set up): line 1, column 1. */
export function fileDiagnostic(file: string, code: string, message: string): CheckDiagnostic {
  return { file, line: 1, column: 1, severity: "error", message, code };
}

/** Where a requirements notice line points: the `uses:` entry or `models:` role it names. */
function noticeLineSpan(
  prompt: Prompt,
  noticeLine: string,
): Pick<CheckDiagnostic, "line" | "column" | "endLine" | "endColumn"> {
  const role = /^- model role (\S+) cannot be bound/.exec(noticeLine);
  if (role !== null) {
    const declared = prompt.frontmatter.models.find((m) => m.label === role[1]);
    if (declared !== undefined) return lineSpan(prompt.text, declared.line);
  }
  for (const entry of prompt.frontmatter.uses) {
    if (
      noticeLine === `- missing required Pack: ${entry.packId}` ||
      noticeLine.startsWith(`- ${entry.packId} `)
    ) {
      return {
        line: entry.line,
        column: entry.column,
        endLine: entry.line,
        endColumn: entry.column + entry.text.length,
      };
    }
  }
  return { line: 1, column: 1 };
}

/**
 * One diagnostic per problem line of a refused prepare's notice (a missing or unavailable Pack,
 * a missing service, a model role that cannot be bound), each at the `uses:` entry or `models:`
 * role it names, its message the line without `- ` (an indented line after it, such as a
 * `  fix: …` hint, is added to that message on a line of its own).
 */
export function requirementsDiagnostics(
  file: string,
  prompt: Prompt,
  notice: string,
): CheckDiagnostic[] {
  const diagnostics: CheckDiagnostic[] = [];
  for (const line of notice.split("\n")) {
    if (line.startsWith("- ")) {
      diagnostics.push({
        file,
        ...noticeLineSpan(prompt, line),
        severity: "error",
        message: line.slice(2),
        code: "RequirementsUnmet",
      });
      continue;
    }
    const previous = diagnostics[diagnostics.length - 1];
    if (previous !== undefined && line.startsWith(" ")) previous.message += `\n${line.trim()}`;
  }
  return diagnostics;
}
