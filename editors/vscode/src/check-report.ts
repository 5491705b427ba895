/** How bad a problem is, as `runvil check --json` words it. */
export type CheckSeverity = "error" | "warning" | "information";

/**
 * One problem of `runvil check --json` (the CLI's `CheckDiagnostic`): 1-based `line` and
 * `column`, and `endLine`/`endColumn` (1-based, just after the last character) when the problem
 * covers a known span.
 */
export interface CheckDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  severity: CheckSeverity;
  message: string;
  code: string;
}

/** The part of the `runvil check --json` report the editor reads. */
export interface CheckReport {
  ok: boolean;
  diagnostics: CheckDiagnostic[];
}

const SEVERITIES: readonly string[] = ["error", "warning", "information"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function positiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

/** The diagnostic at `index`, checked field by field; a bad field is named in the error. */
function readDiagnostic(value: unknown, index: number): CheckDiagnostic {
  const where = `diagnostics[${index}]`;
  if (!isRecord(value)) throw new Error(`${where} is not an object`);
  const { file, line, column, endLine, endColumn, severity, message, code } = value;
  if (typeof file !== "string") throw new Error(`${where}.file is not a string`);
  if (!positiveInteger(line)) throw new Error(`${where}.line is not a line number`);
  if (!positiveInteger(column)) throw new Error(`${where}.column is not a column number`);
  if (endLine !== undefined && !positiveInteger(endLine)) {
    throw new Error(`${where}.endLine is not a line number`);
  }
  if (endColumn !== undefined && !positiveInteger(endColumn)) {
    throw new Error(`${where}.endColumn is not a column number`);
  }
  if (typeof severity !== "string" || !SEVERITIES.includes(severity)) {
    throw new Error(`${where}.severity is not one of ${SEVERITIES.join(", ")}`);
  }
  if (typeof message !== "string") throw new Error(`${where}.message is not a string`);
  if (typeof code !== "string") throw new Error(`${where}.code is not a string`);
  const diagnostic: CheckDiagnostic = {
    file,
    line,
    column,
    severity: severity as CheckSeverity,
    message,
    code,
  };
  if (endLine !== undefined) diagnostic.endLine = endLine;
  if (endColumn !== undefined) diagnostic.endColumn = endColumn;
  return diagnostic;
}

/**
 * Reads what `runvil check --json` printed. Anything else (a crash's stack trace, an older
 * `runvil` without diagnostics) is an error saying what was wrong, so the editor can show it.
 */
export function parseCheckReport(stdout: string): CheckReport {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    const head = stdout.trim().slice(0, 200);
    throw new Error(
      head === ""
        ? "runvil check --json printed nothing"
        : `runvil check --json did not print JSON: ${head}`,
    );
  }
  if (!isRecord(data)) throw new Error("runvil check --json printed JSON that is not an object");
  if (typeof data.ok !== "boolean") throw new Error("runvil check --json: `ok` is not a boolean");
  if (!Array.isArray(data.diagnostics)) {
    throw new Error(
      "runvil check --json: the report has no `diagnostics` list (this runvil is older than the extension)",
    );
  }
  return { ok: data.ok, diagnostics: data.diagnostics.map(readDiagnostic) };
}
