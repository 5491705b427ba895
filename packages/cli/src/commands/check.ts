import type { PreparedModelRole } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser, type Prompt, type PromptParseError } from "@runvil/parser";
import { INPUT_BROKER, type InputBroker } from "@runvil/sdk";
import { type BindingJson, bindingLines, bindingsJson } from "../bindings";
import {
  type CheckDiagnostic,
  fileDiagnostic,
  parseErrorDiagnostic,
  requirementsDiagnostics,
} from "../check/diagnostics";
import { formatHostError, formatParseError, formatRefusal } from "../format-parse-error";
import { CliHostCache } from "../host/cli-host";
import type { CliIo } from "../io";
import { withModelHints } from "../model-hints";
import { type OutlineJson, outlineJson, renderOutline } from "../outline";
import { readFailureMessage } from "../read-failure";
import { inputModeUsageError, lendsBroker, parseInputMode } from "./input-mode";

/** Options of `runvil check`. */
export interface CheckOptions {
  /** Print one JSON report instead of text. */
  json: boolean;
  /** The Host configuration file; absent: the nearest runvil.config.json of each prompt. */
  config?: string;
  /** Whether prepare counts on an input broker, as `runvil run --input` would: default `auto`. */
  input?: string;
}

/** One file's entry in the `runvil check --json` report. */
export type CheckFileReport =
  | { file: string; ok: true; outline: OutlineJson; bindings: BindingJson[] }
  | {
      file: string;
      ok: false;
      error: { kind: string; message: string; line?: number; column?: number };
    };

type FileError = Extract<CheckFileReport, { ok: false }>["error"];

function errorJson(error: PromptParseError): FileError {
  const out: FileError = { kind: error.kind, message: error.message };
  if (error.line !== undefined) out.line = error.line;
  if (error.column !== undefined) out.column = error.column;
  return out;
}

/** The file's text for finding spans: decoded leniently, line endings normalized, BOM dropped. */
function decodeForPositions(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes).replace(/\r\n?/g, "\n");
}

/** Stands in for the terminal's broker: check prepares runs but never runs one. */
const PRESENT_BROKER: InputBroker = {
  ask: () => Promise.reject(new Error("runvil check runs nothing")),
};

/**
 * Prepares a parsed prompt against its Host: the bound model roles when the Host can run it,
 * else the error to report (a refused prepare as RequirementsUnmet, a Host that cannot be set
 * up as Host).
 */
async function prepareCheck(
  file: string,
  prompt: Prompt,
  hosts: CliHostCache,
  options: CheckOptions,
  broker: boolean,
): Promise<
  { ok: true; models: readonly PreparedModelRole[] } | { ok: false; error: FileError; text: string }
> {
  const loaded = await hosts.get({
    promptFile: file,
    ...(options.config === undefined ? {} : { configFile: options.config }),
  });
  if (!loaded.ok) {
    return {
      ok: false,
      error: { kind: "Host", message: loaded.message },
      text: formatHostError(file, loaded.message),
    };
  }
  const prepared = loaded.host.prepare(prompt, {
    services: broker ? { [INPUT_BROKER]: PRESENT_BROKER } : {},
  });
  if (prepared.ok) return { ok: true, models: prepared.run.models };
  const notice = withModelHints(prepared.notice, loaded.host);
  return {
    ok: false,
    error: { kind: "RequirementsUnmet", message: notice },
    text: formatRefusal(file, notice),
  };
}

/**
 * `runvil check FILE...`: parses each prompt and prepares it against its Host (without running
 * anything), printing its outline, or its parse error, or the requirements notice of a refused
 * prepare. Resolves to 0 when every file passes, 1 otherwise, 2 for a bad option.
 */
export async function checkCommand(
  files: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  const inputMode = parseInputMode(options.input);
  if (inputMode === undefined) {
    io.stderr(`${inputModeUsageError(options.input ?? "")}\n`);
    return 2;
  }
  const broker = lendsBroker(inputMode, io);
  const parse = createPromptParser(await loadLuaRuntime());
  const hosts = new CliHostCache();
  const reports: CheckFileReport[] = [];
  const diagnostics: CheckDiagnostic[] = [];
  try {
    for (const file of files) {
      let bytes: Uint8Array;
      try {
        bytes = await io.readFile(file);
      } catch (error) {
        const message = readFailureMessage(error);
        reports.push({ file, ok: false, error: { kind: "File", message } });
        diagnostics.push(fileDiagnostic(file, "File", message));
        if (!options.json) io.stderr(`${file}: ${message}\n`);
        continue;
      }
      const result = parse(bytes, { path: file });
      if (!result.ok) {
        reports.push({ file, ok: false, error: errorJson(result.error) });
        diagnostics.push(parseErrorDiagnostic(file, result.error, decodeForPositions(bytes)));
        if (!options.json) io.stderr(`${formatParseError(file, result.error)}\n`);
        continue;
      }
      const checked = await prepareCheck(file, result.prompt, hosts, options, broker);
      if (!checked.ok) {
        reports.push({ file, ok: false, error: checked.error });
        diagnostics.push(
          ...(checked.error.kind === "RequirementsUnmet"
            ? requirementsDiagnostics(file, result.prompt, checked.error.message)
            : [fileDiagnostic(file, checked.error.kind, checked.error.message)]),
        );
        if (!options.json) io.stderr(`${checked.text}\n`);
        continue;
      }
      reports.push({
        file,
        ok: true,
        outline: outlineJson(result.prompt),
        bindings: bindingsJson(checked.models),
      });
      if (!options.json) {
        const outline = renderOutline(result.prompt, bindingLines(checked.models));
        io.stdout(`${file}: ok\n${outline.join("\n")}\n`);
      }
    }
  } finally {
    // Every Host check set up ends here: the servers and connections its Packs hold close.
    await hosts.close();
  }
  const failedCount = reports.filter((r) => !r.ok).length;
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ files: reports, ok: failedCount === 0, diagnostics }, null, 2)}\n`,
    );
  } else if (files.length > 1) {
    io.stdout(`${files.length - failedCount} of ${files.length} prompts pass\n`);
  }
  return failedCount === 0 ? 0 : 1;
}
