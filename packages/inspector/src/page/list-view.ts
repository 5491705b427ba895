import type { RunListRow, RunListView } from "../view-types";
import { h } from "./dom";
import { formatDuration, formatInstant, outcomeText } from "./format";

const COLUMNS = [
  "ID",
  "Prompt",
  "Started",
  "Duration",
  "Outcome",
  "Resumes",
  "Rounds",
  "Tool calls",
  "Tokens",
];

function row(run: RunListRow): HTMLTableRowElement {
  return h(
    "tr",
    { "data-run": run.id, class: `run outcome-${run.outcome}` },
    h("td", {}, h("a", { href: `/runs/${encodeURIComponent(run.id)}`, class: "run-link" }, run.id)),
    h("td", { class: "prompt" }, run.prompt),
    h("td", {}, formatInstant(run.startedAt)),
    h("td", { class: "num" }, formatDuration(run.durationMs)),
    h(
      "td",
      {},
      h("span", { class: `badge outcome-${run.outcome}` }, outcomeText(run.outcome, run.errorKind)),
    ),
    h("td", { class: "num" }, run.resumes),
    h("td", { class: "num" }, run.modelRounds),
    h("td", { class: "num" }, run.toolCalls),
    h("td", { class: "num" }, run.tokens),
  );
}

/** The run list: one row per run, newest first. */
export function listView(view: RunListView): HTMLElement {
  if (view.runs.length === 0) {
    return h(
      "section",
      { id: "runs" },
      h("h1", {}, "Runs"),
      h("p", { class: "empty" }, `No runs recorded in ${view.journal} yet.`),
    );
  }
  return h(
    "section",
    { id: "runs" },
    h("h1", {}, "Runs"),
    h(
      "table",
      { class: "runs", "data-testid": "run-list" },
      h("thead", {}, h("tr", {}, ...COLUMNS.map((c) => h("th", {}, c)))),
      h("tbody", {}, ...view.runs.map(row)),
    ),
  );
}
