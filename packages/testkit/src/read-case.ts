import { resolve } from "node:path";
import { InputFileError, readInputFile } from "@runvil/host";
import {
  field,
  has,
  type IssueSink,
  readInteger,
  readMapping,
  readString,
  requireKeys,
} from "./field-reader";
import type { KeyPath } from "./key-path";
import { readExpectations } from "./read-expect";
import { defaultHost, readHost } from "./read-host";
import {
  defaultRun,
  readModels,
  readOperator,
  readRun,
  readStoreFiles,
  readWeb,
} from "./read-inputs";
import type { ScenarioCase } from "./scenario-types";

/** The keys of a case. */
export const CASE_KEYS = [
  "name",
  "spec",
  "skip",
  "prompt",
  "prompt_file",
  "args",
  "host",
  "run",
  "models",
  "operator",
  "web",
  "store",
  "cancel_after_ms",
  "stop_after_ms",
  "expect",
] as const;

/**
 * Reads one case at `path` (`cases[index]`). Problems go to `sink`; the returned case is
 * complete only when none were reported.
 */
export function readCase(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  index: number,
  line: number,
  baseDir?: string,
): ScenarioCase | undefined {
  const fields = readMapping(sink, value, path, CASE_KEYS);
  if (fields === undefined) return undefined;
  requireKeys(
    sink,
    fields,
    path,
    has(fields, "prompt_file") ? ["name", "expect"] : ["name", "prompt", "expect"],
  );
  const at = (key: string): KeyPath => [...path, key];
  const text = (key: string, rules?: { nonEmpty?: boolean; singleLine?: boolean }) =>
    has(fields, key) ? readString(sink, field(fields, key), at(key), rules) : undefined;
  const millis = (key: string) =>
    has(fields, key) ? readInteger(sink, field(fields, key), at(key), 0) : undefined;

  const name = text("name", { nonEmpty: true, singleLine: true });
  const spec = text("spec");
  const skip = text("skip", { nonEmpty: true });
  const promptFile = text("prompt_file", { nonEmpty: true, singleLine: true });
  let prompt = text("prompt");
  let promptPath: string | undefined;
  if (promptFile !== undefined) {
    if (has(fields, "prompt")) {
      sink(at("prompt_file"), "give either prompt or prompt_file, not both");
    } else {
      promptPath = resolve(baseDir ?? ".", promptFile);
      prompt = readPromptFile(sink, at("prompt_file"), promptFile, promptPath);
    }
  }
  const args = text("args");
  const cancelAfterMs = millis("cancel_after_ms");
  const stopAfterMs = millis("stop_after_ms");
  const scenarioCase: ScenarioCase = {
    index,
    line,
    name: name ?? "",
    prompt: prompt ?? "",
    host: has(fields, "host") ? readHost(sink, field(fields, "host"), at("host")) : defaultHost(),
    run: has(fields, "run") ? readRun(sink, field(fields, "run"), at("run")) : defaultRun(),
    models: has(fields, "models")
      ? readModels(sink, field(fields, "models"), at("models"))
      : { bind: {}, replies: [] },
    operator: has(fields, "operator")
      ? readOperator(sink, field(fields, "operator"), at("operator"))
      : [],
    web: has(fields, "web")
      ? readWeb(sink, field(fields, "web"), at("web"))
      : { pages: {}, search: {} },
    store: has(fields, "store") ? readStoreFiles(sink, field(fields, "store"), at("store")) : {},
    expect: has(fields, "expect")
      ? readExpectations(sink, field(fields, "expect"), at("expect"))
      : {},
  };
  if (promptPath !== undefined) scenarioCase.promptPath = promptPath;
  if (spec !== undefined) scenarioCase.spec = spec;
  if (skip !== undefined) scenarioCase.skip = skip;
  if (args !== undefined) scenarioCase.args = args;
  if (cancelAfterMs !== undefined) scenarioCase.cancelAfterMs = cancelAfterMs;
  if (stopAfterMs !== undefined) scenarioCase.stopAfterMs = stopAfterMs;
  return scenarioCase;
}

// As readFileSync(path, "utf8") decoded: bad bytes become U+FFFD, a BOM is kept.
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Reads a case's `prompt_file` (a regular file of at most 8 MiB), reporting one that cannot be read at that key. */
function readPromptFile(
  sink: IssueSink,
  path: KeyPath,
  written: string,
  absolute: string,
): string | undefined {
  try {
    return UTF8.decode(readInputFile(absolute, { what: "a prompt file" }));
  } catch (error) {
    const why = error instanceof InputFileError ? error.detail : String(error);
    sink(path, `cannot read ${written}: ${why}`);
    return undefined;
  }
}
