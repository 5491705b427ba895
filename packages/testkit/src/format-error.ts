/** One problem found in a scenario file. */
export interface FormatIssue {
  /** The file, as given to the loader. */
  file: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** Zero-based index of the case, when the problem is inside one. */
  caseIndex?: number;
  /** Name of the case, when it has a valid one. */
  caseName?: string;
  /** Key path such as `cases[3].expect.error.kind`; empty for the whole file. */
  keyPath: string;
  /** What is wrong, as a sentence fragment. */
  message: string;
}

/** Renders one issue: `FILE:LINE: KEY.PATH (case "NAME"): MESSAGE`. */
export function describeIssue(issue: FormatIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const named = issue.caseName === undefined ? "" : ` (case ${JSON.stringify(issue.caseName)})`;
  const key =
    issue.keyPath === "" ? (named === "" ? "" : named.trimStart()) : issue.keyPath + named;
  return key === "" ? `${where}: ${issue.message}` : `${where}: ${key}: ${issue.message}`;
}

/**
 * A scenario file that breaks the format. It lists every problem found in the file; the
 * `line`, `caseIndex`, `caseName` and `keyPath` fields repeat those of the first one.
 */
export class ScenarioFormatError extends Error {
  override readonly name = "ScenarioFormatError";
  /** The file, as given to the loader. */
  readonly file: string;
  /** Every problem found, in file order; never empty. */
  readonly issues: readonly FormatIssue[];
  /** Line of the first problem. */
  readonly line: number | undefined;
  /** Case index of the first problem. */
  readonly caseIndex: number | undefined;
  /** Case name of the first problem. */
  readonly caseName: string | undefined;
  /** Key path of the first problem. */
  readonly keyPath: string;

  constructor(file: string, issues: readonly FormatIssue[]) {
    const first = issues[0] ?? { file, keyPath: "", message: "invalid scenario file" };
    super(issues.length === 0 ? describeIssue(first) : issues.map(describeIssue).join("\n"));
    this.file = file;
    this.issues = issues.length === 0 ? [first] : issues;
    this.line = first.line;
    this.caseIndex = first.caseIndex;
    this.caseName = first.caseName;
    this.keyPath = first.keyPath;
  }
}
