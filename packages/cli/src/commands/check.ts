import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser, type PromptParseError } from "@runvil/parser";
import type { CliIo } from "../io";
import { type OutlineJson, outlineJson, renderOutline } from "../outline";

/** Options of `runvil check`. */
export interface CheckOptions {
  /** Print one JSON report instead of text. */
  json: boolean;
}

/** One file's entry in the `runvil check --json` report. */
export type CheckFileReport =
  | { file: string; ok: true; outline: OutlineJson }
  | {
      file: string;
      ok: false;
      error: { kind: string; message: string; line?: number; column?: number };
    };

/** Renders a parse error the way every command prints one: `{file}: {Kind} error: {message}`. */
export function formatParseError(file: string, error: PromptParseError): string {
  return `${file}: ${error.kind} error: ${error.message}`;
}

function errorJson(error: PromptParseError): Extract<CheckFileReport, { ok: false }>["error"] {
  const out: Extract<CheckFileReport, { ok: false }>["error"] = {
    kind: error.kind,
    message: error.message,
  };
  if (error.line !== undefined) out.line = error.line;
  if (error.column !== undefined) out.column = error.column;
  return out;
}

/**
 * `runvil check FILE...`: parses each prompt and prints its outline or its
 * parse error. Resolves to 0 when every file parses, 1 otherwise.
 */
export async function checkCommand(
  files: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  const parse = createPromptParser(await loadLuaRuntime());
  const reports: CheckFileReport[] = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = await io.readFile(file);
    } catch (error) {
      const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
      const message =
        reason === "ENOENT"
          ? "no such file"
          : reason === "EISDIR"
            ? "is a directory"
            : `cannot read the file (${reason})`;
      reports.push({ file, ok: false, error: { kind: "File", message } });
      if (!options.json) io.stderr(`${file}: ${message}\n`);
      continue;
    }
    const result = parse(bytes, { path: file });
    reports.push(
      result.ok
        ? { file, ok: true, outline: outlineJson(result.prompt) }
        : { file, ok: false, error: errorJson(result.error) },
    );
    if (!options.json) {
      if (result.ok) io.stdout(`${file}: ok\n${renderOutline(result.prompt).join("\n")}\n`);
      else io.stderr(`${formatParseError(file, result.error)}\n`);
    }
  }
  const failedCount = reports.filter((r) => !r.ok).length;
  if (options.json) {
    io.stdout(`${JSON.stringify({ files: reports, ok: failedCount === 0 }, null, 2)}\n`);
  } else if (files.length > 1) {
    io.stdout(`${files.length - failedCount} of ${files.length} prompts parse\n`);
  }
  return failedCount === 0 ? 0 : 1;
}
