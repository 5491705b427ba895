import type {
  EndingView,
  EntryView,
  ModelItem,
  PromptLine,
  RunView,
  StoreItem,
  TimelineItem,
  ToolItem,
} from "../view-types";
import { type Child, h } from "./dom";
import { formatDuration, formatInstant, outcomeText } from "./format";

function pre(text: string, className = ""): HTMLPreElement {
  return h("pre", { class: className }, text);
}

function details(key: string, summary: Child, ...body: readonly Child[]): HTMLDetailsElement {
  return h("details", { "data-key": key }, h("summary", {}, summary), ...body);
}

function meta(...parts: readonly (string | null | false)[]): HTMLSpanElement {
  return h(
    "span",
    { class: "meta" },
    parts.filter((p): p is string => typeof p === "string" && p !== "").join(" · "),
  );
}

function tokens(item: ModelItem): string | null {
  if (item.inputTokens === null || item.outputTokens === null) return null;
  return `${item.inputTokens} in / ${item.outputTokens} out`;
}

function modelItem(item: ModelItem, key: string): HTMLElement {
  const head = h(
    "span",
    {},
    h("span", { class: "kind" }, "model"),
    ` round ${item.turn} (${item.via}) · ${item.role} = ${item.model} `,
    meta(
      tokens(item),
      item.latencyMs === null ? null : formatDuration(item.latencyMs),
      item.finishReason === null ? null : `finish ${item.finishReason}`,
      item.costUsd === null ? null : `$${item.costUsd}`,
      item.done ? null : "in progress",
    ),
  );
  const body: Child[] = [];
  for (const retry of item.retries) body.push(h("p", { class: "retry" }, retry));
  if (item.failed !== null) body.push(h("p", { class: "failed" }, `failed: ${item.failed}`));
  if (item.system !== null) body.push(h("h4", {}, "system"), pre(item.system));
  if (item.messages.length > 0) {
    body.push(
      h("h4", {}, `messages (${item.messages.length})`),
      h(
        "ol",
        { class: "messages" },
        ...item.messages.map((m) =>
          h(
            "li",
            { class: `message role-${m.role}` },
            h("span", { class: "role" }, m.role),
            m.note === undefined ? null : h("span", { class: "note" }, m.note),
            pre(m.content),
          ),
        ),
      ),
    );
  }
  if (item.tools.length > 0)
    body.push(h("p", { class: "tools" }, `tools offered: ${item.tools.join(", ")}`));
  if (item.reply !== null) {
    body.push(
      h("h4", {}, "reply"),
      item.reply === "" ? h("p", { class: "meta" }, "(no text)") : pre(item.reply, "reply"),
    );
  }
  if (item.toolCalls.length > 0) {
    body.push(
      h("h4", {}, "tool calls"),
      h(
        "ul",
        { class: "calls" },
        ...item.toolCalls.map((c) => h("li", {}, `${c.name} [${c.id}] `, pre(c.arguments))),
      ),
    );
  }
  return details(key, head, ...body);
}

function toolItem(item: ToolItem): HTMLElement {
  const name = item.tool === null ? `${item.alias} (local)` : item.tool;
  const head = h(
    "span",
    {},
    h("span", { class: "kind" }, "tool"),
    ` ${name} `,
    meta(
      `by ${item.caller}`,
      item.callId === "" ? null : `call ${item.callId}`,
      item.durationMs === null ? null : formatDuration(item.durationMs),
      item.failed === null ? null : "failed",
      item.done ? null : "in progress",
    ),
    item.trusted ? null : h("span", { class: "badge untrusted" }, "untrusted output"),
  );
  return h(
    "div",
    {},
    head,
    h("h4", {}, "arguments"),
    pre(item.arguments, "arguments"),
    item.failed === null ? null : h("p", { class: "failed" }, `failed: ${item.failed}`),
    item.output === null
      ? null
      : h(
          "div",
          {
            class: item.trusted ? "output" : "output untrusted",
            "data-trusted": String(item.trusted),
          },
          h("h4", {}, item.trusted ? "output" : "output (untrusted: shown as text, never run)"),
          pre(item.output, "tool-output"),
        ),
  );
}

function storeItem(item: StoreItem): HTMLElement {
  return h(
    "div",
    {},
    h("span", { class: "kind" }, "store"),
    ` ${item.op} ${item.target} `,
    meta(
      item.ok ? "ok" : `failed${item.reason === null ? "" : ` (${item.reason})`}`,
      item.durationMs === null ? null : formatDuration(item.durationMs),
    ),
    item.change === null ? null : pre(item.change, "store-change"),
    item.output === null ? null : pre(item.output, "store-output"),
  );
}

function itemView(item: TimelineItem, key: string): HTMLLIElement {
  const attributes = { class: `item item-${item.type}`, "data-seq": item.seq };
  switch (item.type) {
    case "model":
      return h("li", attributes, modelItem(item, key));
    case "tool":
      return h("li", attributes, toolItem(item));
    case "store":
      return h("li", attributes, storeItem(item));
    case "block":
      return h(
        "li",
        { ...attributes, "data-status": item.status },
        h("span", { class: "kind" }, "block"),
        ` ${item.block} `,
        meta(item.status),
      );
    case "log":
      return h("li", attributes, h("span", { class: "kind" }, "log"), " ", item.message);
    case "flow":
      return h("li", attributes, h("span", { class: "kind" }, "flow"), ` ${item.text}`);
    case "event":
      return h(
        "li",
        attributes,
        h("span", { class: "kind" }, item.event),
        " ",
        h("code", {}, item.fields),
      );
  }
}

function entryView(entry: EntryView): HTMLElement {
  return h(
    "section",
    { class: "entry", "data-entry": entry.entry, "data-testid": "entry" },
    h(
      "h3",
      {},
      entry.section,
      " ",
      meta(
        `entry ${entry.entry}`,
        entry.via,
        entry.chain === "0" ? null : `chain ${entry.chain}`,
        entry.ended === null ? null : `ended by ${entry.ended}`,
      ),
    ),
    h(
      "ol",
      { class: "items" },
      ...entry.items.map((item, i) => itemView(item, `${entry.entry}/${i}`)),
    ),
  );
}

function promptLines(lines: readonly PromptLine[], testId: string): HTMLElement {
  return h(
    "pre",
    { class: "prompt-lines", "data-testid": testId },
    ...lines.map((line) =>
      h(
        "span",
        { class: line.marked ? "line marked" : "line", "data-line": line.n },
        h("span", { class: "n" }, String(line.n).padStart(4)),
        ` ${line.text}\n`,
      ),
    ),
  );
}

function endingView(ending: EndingView | null, promptPath: string): HTMLElement {
  if (ending === null) {
    return h(
      "section",
      { id: "ending", class: "ending running" },
      h("h2", {}, "Ending"),
      h(
        "p",
        {},
        "No ending yet: the run is still recording (this page updates as it goes), or it was killed.",
      ),
    );
  }
  if (ending.error === null) {
    return h(
      "section",
      { id: "ending", class: `ending outcome-${ending.outcome}` },
      h("h2", {}, "Result"),
      ending.outcome === "succeeded"
        ? ending.result === null
          ? h("p", {}, "The run succeeded with no result.")
          : pre(ending.result, "result")
        : h("p", {}, ending.stopped ? "The run was stopped." : "The run was cancelled."),
    );
  }
  const error = ending.error;
  const where = [
    error.section === null ? null : `section ${error.section}`,
    error.entry === null ? null : `entry ${error.entry}`,
    error.line === null ? null : `${promptPath}:${error.line}`,
  ].filter((p): p is string => p !== null);
  return h(
    "section",
    { id: "ending", class: "ending outcome-failed" },
    h("h2", {}, `${error.kind} error`),
    where.length === 0 ? null : h("p", { class: "where" }, where.join(" · ")),
    pre(error.message, "error-message"),
    ...error.causes.map((cause) => h("p", { class: "cause" }, `cause: ${cause}`)),
    error.lines.length === 0 ? null : promptLines(error.lines, "error-lines"),
  );
}

/** `resumed`: `once (…)`, `2 times (…, …)`; no row for a run never resumed. */
function resumedRow(view: RunView): [string, string][] {
  const count = view.run.resumes;
  if (count === 0) return [];
  const times = count === 1 ? "once" : `${count} times`;
  const when = view.resumedAt.map(formatInstant).join(", ");
  return [["resumed", `${times}${when === "" ? "" : ` (${when})`}`]];
}

/** `recorded by`: the process of a run with no ending, and whether it still runs. */
function recordedByRow(view: RunView): [string, string][] {
  const by = view.recordedBy;
  if (by === null) return [];
  const state =
    by.state === "alive"
      ? "running"
      : by.state === "gone"
        ? "gone: killed or crashed; runvil resume continues the run"
        : "on another host";
  return [["recorded by", `process ${by.pid} on ${by.host} (${state})`]];
}

/** `3 (1 catalog, 1 local, 1 task built-in)`; `0` for none. */
function toolCallsText(view: RunView): string {
  const total = view.run.toolCalls;
  if (total === 0) return "0";
  const kinds = view.toolCallKinds;
  const builtins = `${kinds.taskBuiltins} task built-in${kinds.taskBuiltins === 1 ? "" : "s"}`;
  return `${total} (${kinds.catalog} catalog, ${kinds.local} local, ${builtins})`;
}

function summary(view: RunView): HTMLElement {
  const run = view.run;
  const rows: [string, string][] = [
    ["prompt", run.prompt],
    ["started", formatInstant(run.startedAt)],
    ["duration", formatDuration(run.durationMs)],
    ["outcome", outcomeText(run.outcome, run.errorKind)],
    ...resumedRow(view),
    ...recordedByRow(view),
    ["args", JSON.stringify(view.args)],
    ["seed", view.seed],
    ["model rounds", String(run.modelRounds)],
    ["tool calls", toolCallsText(view)],
    ["tokens", String(run.tokens)],
    ["effects", String(run.effects)],
    ["events", String(run.events)],
  ];
  for (const [role, model] of Object.entries(view.bindings)) rows.push([`role ${role}`, model]);
  return h(
    "dl",
    { class: "summary", "data-testid": "summary" },
    ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
  );
}

/** A run's page: its summary, its ending, its timeline, its prompt. */
export function runPage(view: RunView, pollMs: number): HTMLElement {
  const run = view.run;
  const lines = view.promptText
    .split(/\r?\n/)
    .map((text, i) => ({ n: i + 1, text, marked: false }));
  return h(
    "article",
    { id: "run", "data-run": run.id, "data-version": view.version },
    h(
      "h1",
      {},
      `Run ${run.id} `,
      h(
        "span",
        { class: `badge outcome-${run.outcome}`, "data-testid": "outcome" },
        outcomeText(run.outcome, run.errorKind),
      ),
    ),
    run.outcome === "running"
      ? h(
          "p",
          { class: "live", "data-testid": "live" },
          `recording: updates every ${formatDuration(pollMs)}`,
        )
      : null,
    summary(view),
    endingView(view.ending, run.prompt),
    h(
      "section",
      { id: "timeline", "data-testid": "timeline" },
      h("h2", {}, "Timeline"),
      view.runItems.length === 0
        ? null
        : h(
            "ol",
            { class: "items run-items" },
            ...view.runItems.map((item, i) => itemView(item, `run/${i}`)),
          ),
      ...view.entries.map(entryView),
    ),
    details(
      "prompt",
      `Prompt (${lines.length} lines, ${view.promptHash})`,
      promptLines(lines, "prompt"),
    ),
  );
}
