import { isMap, isSeq, parseDocument, stringify } from "yaml";
import { loadScenarioFile } from "./load-scenarios";
import type { JsonObject } from "./scenario-types";

/** Multi-line texts as literal blocks, no folding: a prompt reads as it is in its file. */
const OPTIONS = { blockQuote: "literal", lineWidth: 0 } as const;

/** Thrown when a case cannot be added to a scenario file's text. */
export class ScenarioWriteError extends Error {
  override readonly name = "ScenarioWriteError";
}

/**
 * A scenario file's text with one more case: `caseData` (a case in the format's YAML keys,
 * docs/testing.md) as the only case of a new file when `existing` is undefined, else appended
 * to the `cases` of `existing` with its comments and layout kept. The text returned is checked
 * by loading it as `path` (the folder `prompt_file` is relative to): a ScenarioFormatError if
 * the case breaks the format, a ScenarioWriteError if `existing` is not a scenario file or
 * already has a case of that name.
 */
export function addScenarioCase(
  existing: string | undefined,
  caseData: JsonObject,
  path: string,
): string {
  let text: string;
  if (existing === undefined || existing.trim() === "") {
    text = stringify({ cases: [caseData] }, OPTIONS);
  } else {
    const document = parseDocument(existing);
    if (document.errors.length > 0) {
      throw new ScenarioWriteError(`${path}: not YAML (${document.errors[0]?.message ?? ""})`);
    }
    const cases = isMap(document.contents) ? document.contents.get("cases", true) : undefined;
    if (!isSeq(cases)) {
      throw new ScenarioWriteError(`${path}: not a scenario file (no cases list)`);
    }
    const names = cases.items.map((item) => (isMap(item) ? item.get("name") : undefined));
    if (names.includes(caseData.name)) {
      throw new ScenarioWriteError(
        `${path}: already has a case named ${JSON.stringify(caseData.name)}`,
      );
    }
    cases.items.push(document.createNode(caseData));
    text = document.toString(OPTIONS);
  }
  loadScenarioFile({ text, path }); // throws a ScenarioFormatError naming every problem
  return text;
}
