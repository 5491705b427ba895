/**
 * The JSON the inspector's API serves and its page renders (docs/design/inspector.md). Types
 * only: the page's bundle imports them without any server code.
 */

import type { PlainValue } from "./plain-value";

/** One run in the run list. */
export interface RunListRow {
  readonly id: string;
  readonly prompt: string;
  /** ISO instant. */
  readonly startedAt: string;
  /** Null while the run has no ending. */
  readonly durationMs: number | null;
  /** `succeeded`, `failed`, `cancelled`, or `running` while it has no ending. */
  readonly outcome: string;
  readonly errorKind: string | null;
  /** How many times `runvil resume` continued it (0: never). */
  readonly resumes: number;
  readonly modelRounds: number;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly effects: number;
  readonly events: number;
}

/** `GET /api/runs`. */
export interface RunListView {
  /** The journal, as the inspector was started on it. */
  readonly journal: string;
  readonly runs: readonly RunListRow[];
}

/** A message of a model round's request. */
export interface MessageView {
  readonly role: string;
  readonly content: string;
  /** An assistant record's calls (`name(arguments)`), a tool record's call id. */
  readonly note?: string;
}

/** A model round. */
export interface ModelItem {
  readonly type: "model";
  readonly seq: number;
  readonly effect: string | null;
  readonly turn: number;
  readonly role: string;
  readonly model: string;
  readonly via: string;
  /** The request's system text and records, when the round's effect was recorded. */
  readonly system: string | null;
  readonly messages: readonly MessageView[];
  readonly tools: readonly string[];
  /** The reply. */
  readonly reply: string | null;
  readonly toolCalls: readonly {
    readonly id: string;
    readonly name: string;
    readonly arguments: string;
  }[];
  readonly finishReason: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly costUsd: string | null;
  /** From the request to its answer (retries included), when the effect was recorded. */
  readonly latencyMs: number | null;
  readonly retries: readonly string[];
  readonly failed: string | null;
  /** False while the round has not ended (a run still recording). */
  readonly done: boolean;
}

/** A tool call, by a script or by the model. */
export interface ToolItem {
  readonly type: "tool";
  readonly seq: number;
  readonly effect: string | null;
  readonly alias: string;
  /** The catalog tool's id; null for a local tool. */
  readonly tool: string | null;
  readonly caller: string;
  readonly callId: string;
  readonly turn: number;
  /** The arguments as indented JSON. */
  readonly arguments: string;
  /** The result text the caller received (untrusted output inside its envelope). */
  readonly output: string | null;
  /** False for untrusted output: the page marks it. */
  readonly trusted: boolean;
  readonly failed: string | null;
  /** A catalog call's duration, when its effect was recorded; null for a local tool. */
  readonly durationMs: number | null;
  readonly done: boolean;
}

/** A store operation: what it named, whether it worked, what it wrote. */
export interface StoreItem {
  readonly type: "store";
  readonly seq: number;
  readonly effect: string | null;
  readonly op: string;
  readonly target: string;
  readonly ok: boolean;
  readonly reason: string | null;
  /** What a changing operation wrote (a write's or append's contents), as text. */
  readonly change: string | null;
  /** What a read answered, as text. */
  readonly output: string | null;
  readonly durationMs: number | null;
}

/** A block of Lua (its label), started and how it ended. */
export interface BlockItem {
  readonly type: "block";
  readonly seq: number;
  readonly block: string;
  /** `running`, `succeeded`, `failed`. */
  readonly status: string;
}

/** A task spawned, finished, joined, cancelled, noted; a call; a jump. */
export interface FlowItem {
  readonly type: "flow";
  readonly seq: number;
  readonly text: string;
}

/** A `log()` line (`lua_checkpoint`). */
export interface LogItem {
  readonly type: "log";
  readonly seq: number;
  readonly message: string;
}

/** Any other event, with its fields. */
export interface EventItem {
  readonly type: "event";
  readonly seq: number;
  readonly event: string;
  readonly fields: string;
}

/** One thing that happened in a section entry. */
export type TimelineItem =
  | ModelItem
  | ToolItem
  | StoreItem
  | BlockItem
  | FlowItem
  | LogItem
  | EventItem;

/** A section entry: a section run once, on a chain, perhaps inside a task. */
export interface EntryView {
  readonly entry: string;
  readonly section: string;
  readonly chain: string;
  /** How it was entered (`h1`, `walk`, `jump`, `call`, `task`). */
  readonly via: string;
  /** How it ended (`return`, `jump`, `fall_through`); null while it runs or when it failed. */
  readonly ended: string | null;
  readonly items: readonly TimelineItem[];
}

/** A line of the prompt, with its number. */
export interface PromptLine {
  readonly n: number;
  readonly text: string;
  /** The line the error names. */
  readonly marked: boolean;
}

/** How the run ended. */
export interface EndingView {
  readonly outcome: string;
  /** A succeeded run's result (or report) as text; null when it returned none. */
  readonly result: string | null;
  readonly error: {
    readonly kind: string;
    readonly message: string;
    readonly causes: readonly string[];
    readonly section: string | null;
    readonly entry: string | null;
    /** The prompt line the error names, when it names one. */
    readonly line: number | null;
    /** The prompt's lines around it (the block that failed, or the section's heading). */
    readonly lines: readonly PromptLine[];
  } | null;
  readonly stopped: boolean;
}

/** `GET /api/runs/:id`: everything the run page shows. */
export interface RunView {
  readonly run: RunListRow;
  readonly promptHash: string;
  readonly args: string;
  readonly seed: string;
  readonly bindings: Readonly<Record<string, string>>;
  readonly versions: Readonly<Record<string, string>>;
  /** The prompt's text. */
  readonly promptText: string;
  /**
   * Its tool calls by kind (the run's `tool_call_started` events; `run.toolCalls` is their sum):
   * catalog tools (a Pack's, an MCP server's), local tools, the model's task built-ins.
   */
  readonly toolCallKinds: {
    readonly catalog: number;
    readonly local: number;
    readonly taskBuiltins: number;
  };
  /** When each resume reopened the run (ISO instants, oldest first). */
  readonly resumedAt: readonly string[];
  /**
   * The process recording a run with no ending, and whether it still runs as the inspector's
   * host sees it; null once the run ended (or for a run recorded before owners were kept).
   */
  readonly recordedBy: {
    readonly pid: number;
    readonly host: string;
    readonly state: "alive" | "gone" | "elsewhere";
  } | null;
  /** Run-level events (roles bound, tools dropped, …). */
  readonly runItems: readonly TimelineItem[];
  readonly entries: readonly EntryView[];
  /** Null while the run has no ending (it is recording, or it was killed). */
  readonly ending: EndingView | null;
  /** Changes whenever the record grows: the page re-renders only then. */
  readonly version: string;
}

/** Re-exported for the page. */
export type { PlainValue };
