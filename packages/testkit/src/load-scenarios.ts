import { dirname } from "node:path";
import { readInputFile } from "@runvil/host";
import { LineCounter, parseDocument } from "yaml";
import { ScenarioPathError } from "./collect-files";
import { type IssueSink, isPlainObject, readMapping, requireKeys } from "./field-reader";
import { type FormatIssue, ScenarioFormatError } from "./format-error";
import { formatKeyPath, type KeyPath } from "./key-path";
import { readCase } from "./read-case";
import type { ScenarioCase, ScenarioFile } from "./scenario-types";
import { YamlLines } from "./yaml-source";

/** Scenario text that is already in memory, with the path to report it under. */
export interface ScenarioSource {
  text: string;
  path: string;
}

// As readFileSync(path, "utf8") decoded: bad bytes become U+FFFD, a BOM is kept.
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Loads a scenario file from disk (a path) or from memory (`{ text, path }`) and checks it
 * against the format. Throws {@link ScenarioFormatError} listing every problem, or
 * {@link ScenarioPathError} when the file cannot be read: a scenario file is a regular file of
 * at most 8 MiB (`readInputFile`, docs/testing.md).
 */
export function loadScenarioFile(source: string | ScenarioSource): ScenarioFile {
  if (typeof source !== "string") return parseScenarioText(source.text, source.path);
  let text: string;
  try {
    text = UTF8.decode(readInputFile(source, { what: "a scenario file" }));
  } catch (error) {
    throw ScenarioPathError.fromFsError(source, error);
  }
  return parseScenarioText(text, source);
}

function parseScenarioText(text: string, path: string): ScenarioFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true, prettyErrors: true });
  const lines = new YamlLines(doc, lineCounter);
  const issues: FormatIssue[] = [];
  const caseNames = new Map<number, string>();

  const sink: IssueSink = (keyPath, message) => {
    const caseIndex =
      keyPath[0] === "cases" && typeof keyPath[1] === "number" ? keyPath[1] : undefined;
    const issue: FormatIssue = { file: path, keyPath: formatKeyPath(keyPath), message };
    const line = lines.lineOf(keyPath);
    if (line !== undefined && line > 0) issue.line = line;
    if (caseIndex !== undefined) {
      issue.caseIndex = caseIndex;
      const name = caseNames.get(caseIndex);
      if (name !== undefined) issue.caseName = name;
    }
    issues.push(issue);
  };

  const caseStarts = doc.errors.length > 0 ? lines.itemLines(["cases"]) : [];
  for (const error of doc.errors) {
    const issue: FormatIssue = {
      file: path,
      keyPath: "",
      message: `invalid YAML: ${yamlErrorText(error.message)}`,
    };
    const line = error.linePos?.[0]?.line;
    if (line !== undefined) {
      issue.line = line;
      const caseIndex = caseStarts.findLastIndex((start) => start > 0 && start <= line);
      if (caseIndex >= 0) {
        issue.caseIndex = caseIndex;
        issue.keyPath = formatKeyPath(["cases", caseIndex]);
        const name: unknown = doc.getIn(["cases", caseIndex, "name"]);
        if (typeof name === "string") issue.caseName = name;
      }
    }
    issues.push(issue);
  }
  if (issues.length > 0) throw new ScenarioFormatError(path, issues);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 10_000 });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw new ScenarioFormatError(path, [
      { file: path, keyPath: "", message: `invalid YAML: ${text}` },
    ]);
  }

  const cases = readCases(sink, data, caseNames, lines, dirname(path));
  if (issues.length > 0) throw new ScenarioFormatError(path, sortByLine(issues));
  return { path, cases };
}

function readCases(
  sink: IssueSink,
  data: unknown,
  caseNames: Map<number, string>,
  lines: YamlLines,
  baseDir: string,
): ScenarioCase[] {
  if (!isPlainObject(data)) {
    sink([], "a scenario file is a mapping with one key, cases (a list of cases)");
    return [];
  }
  const top = readMapping(sink, data, [], ["cases"]);
  if (top === undefined || !requireKeys(sink, top, [], ["cases"])) return [];
  const list = top.cases;
  if (!Array.isArray(list)) {
    sink(["cases"], "must be a list of cases");
    return [];
  }
  list.forEach((item: unknown, index) => {
    if (isPlainObject(item) && typeof item.name === "string" && item.name.trim() !== "") {
      caseNames.set(index, item.name);
    }
  });
  const cases: ScenarioCase[] = [];
  const firstWithName = new Map<string, number>();
  list.forEach((item: unknown, index) => {
    const path: KeyPath = ["cases", index];
    const read = readCase(sink, item, path, index, lines.lineOf(path) ?? 0, baseDir);
    if (read === undefined) return;
    cases.push(read);
    const name = caseNames.get(index);
    if (name === undefined) return;
    const first = firstWithName.get(name);
    if (first === undefined) firstWithName.set(name, index);
    else
      sink(
        [...path, "name"],
        `repeats the name of cases[${first}] (line ${lines.lineOf(["cases", first]) ?? "?"}); names are unique within a file`,
      );
  });
  return cases;
}

function yamlErrorText(message: string): string {
  const firstLine = message.split("\n")[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, "");
}

function sortByLine(issues: FormatIssue[]): FormatIssue[] {
  return issues
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => (a.issue.line ?? Infinity) - (b.issue.line ?? Infinity) || a.order - b.order)
    .map(({ issue }) => issue);
}
