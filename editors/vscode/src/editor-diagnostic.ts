import type { CheckDiagnostic, CheckSeverity } from "./check-report";

/** A position in the editor's terms: 0-based line and character. */
export interface EditorPosition {
  line: number;
  character: number;
}

/** A diagnostic as the editor draws it, before it becomes a `vscode.Diagnostic`. */
export interface EditorDiagnostic {
  start: EditorPosition;
  end: EditorPosition;
  severity: CheckSeverity;
  message: string;
  code: string;
  source: "runvil";
}

/**
 * Maps one `runvil check --json` diagnostic onto the editor's 0-based range. A diagnostic with
 * a span keeps it (its end column is already exclusive); one with only a position runs to the
 * end of its line when the line's length is known (so the squiggle is visible), else it covers
 * one character. A line past the document's end is clamped to its last line.
 */
export function toEditorDiagnostic(
  diagnostic: CheckDiagnostic,
  lineLength: (line: number) => number | undefined,
  lineCount?: number,
): EditorDiagnostic {
  const lastLine = lineCount === undefined ? Number.POSITIVE_INFINITY : Math.max(lineCount - 1, 0);
  const line = Math.min(diagnostic.line - 1, lastLine);
  const start = { line, character: diagnostic.column - 1 };
  let end: EditorPosition;
  if (diagnostic.endLine !== undefined && diagnostic.endColumn !== undefined) {
    end = { line: Math.min(diagnostic.endLine - 1, lastLine), character: diagnostic.endColumn - 1 };
  } else {
    const length = lineLength(line);
    end = {
      line,
      character: length !== undefined && length > start.character ? length : start.character + 1,
    };
  }
  return {
    start,
    end,
    severity: diagnostic.severity,
    message: diagnostic.message,
    code: diagnostic.code,
    source: "runvil",
  };
}
