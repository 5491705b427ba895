import type { ScenarioFile } from "./scenario-types";

/**
 * Keeps the cases selected by `--filter TEXT`: those whose name, or whose file path, contains
 * `text`, compared case-insensitively (path separators compared as "/"). Files left without
 * cases are dropped; cases keep their `index` in the file. An empty `text` keeps everything.
 */
export function filterCases(files: readonly ScenarioFile[], text: string): ScenarioFile[] {
  if (text === "") return [...files];
  const needle = normalize(text);
  const out: ScenarioFile[] = [];
  for (const file of files) {
    const fileMatches = normalize(file.path).includes(needle);
    const cases = fileMatches
      ? file.cases
      : file.cases.filter((c) => normalize(c.name).includes(needle));
    if (cases.length > 0) out.push({ path: file.path, cases: [...cases] });
  }
  return out;
}

function normalize(text: string): string {
  return text.replaceAll("\\", "/").toLowerCase();
}
