import type { EffectRecord, EventRecord, RecordedRun } from "@runvil/journal";
import { countToolCalls, ownerState } from "@runvil/journal";
import { endingView } from "./ending-view";
import { fieldsOf, type PlainValue, plainOf, textOf } from "./plain-value";
import { runListRow } from "./run-list";
import type {
  EntryView,
  MessageView,
  ModelItem,
  RunView,
  StoreItem,
  TimelineItem,
  ToolItem,
} from "./view-types";

type Fields = Readonly<Record<string, PlainValue>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface EntryDraft {
  entry: string;
  section: string;
  chain: string;
  via: string;
  ended: string | null;
  items: TimelineItem[];
}

function num(value: PlainValue | undefined): number {
  return typeof value === "number" ? value : 0;
}

function str(value: PlainValue | undefined): string {
  return typeof value === "string" ? value : "";
}

function json(value: PlainValue | undefined): string {
  return JSON.stringify(value ?? null, null, 2);
}

const ms = (us: number): number => us / 1000;

/** The effects of one entry not yet tied to an event, in issue order. */
class EffectPool {
  readonly #byEntry = new Map<string, EffectRecord[]>();

  constructor(effects: readonly EffectRecord[]) {
    for (const effect of [...effects].sort((a, b) => a.issued - b.issued)) {
      const list = this.#byEntry.get(effect.origin.entry) ?? [];
      list.push(effect);
      this.#byEntry.set(effect.origin.entry, list);
    }
  }

  /** Takes the first effect of `entry` of this kind whose request passes `match`. */
  take(
    entry: string,
    kind: EffectRecord["kind"],
    match: (request: Fields) => boolean,
  ): EffectRecord | undefined {
    const list = this.#byEntry.get(entry);
    if (list === undefined) return undefined;
    const index = list.findIndex((e) => e.kind === kind && match(fieldsOf(plainOf(e.request))));
    if (index < 0) return undefined;
    return list.splice(index, 1)[0];
  }

  /** The effects no event claimed. */
  rest(): EffectRecord[] {
    return [...this.#byEntry.values()].flat();
  }
}

function messageView(message: PlainValue): MessageView {
  const fields = fieldsOf(message);
  const role = str(fields.role);
  const content = str(fields.content);
  if (role === "assistant" && Array.isArray(fields.toolCalls) && fields.toolCalls.length > 0) {
    const calls = fields.toolCalls.map((call) => {
      const c = fieldsOf(call);
      return `${str(c.name)}(${JSON.stringify(c.arguments ?? null)}) [${str(c.id)}]`;
    });
    return { role, content, note: `calls ${calls.join(", ")}` };
  }
  if (role === "tool") {
    return { role, content, note: `answers ${str(fields.toolCallId)} (${str(fields.toolName)})` };
  }
  return { role, content };
}

function failureText(effect: EffectRecord | undefined): string | null {
  return effect?.failure === undefined ? null : effect.failure.message;
}

function modelItem(seq: number, fields: Fields, effect: EffectRecord | undefined): ModelItem {
  const request = effect === undefined ? {} : fieldsOf(plainOf(effect.request));
  const reply = effect?.output === undefined ? undefined : fieldsOf(plainOf(effect.output));
  const messages = Array.isArray(request.messages) ? request.messages.map(messageView) : [];
  const tools = Array.isArray(request.tools)
    ? request.tools.map((tool) => str(fieldsOf(tool).name))
    : [];
  const calls = reply !== undefined && Array.isArray(reply.toolCalls) ? reply.toolCalls : [];
  // A recorded effect has the reply's usage even before model_turn_completed is written (the
  // journal writes events with the next effect), so a run still recording shows the round done.
  const usage = reply === undefined ? undefined : fieldsOf(reply.usage);
  return {
    type: "model",
    seq,
    effect: effect?.effect ?? null,
    turn: num(fields.turn),
    role: str(fields.role),
    model: str(fields.model),
    via: str(fields.via),
    system: typeof request.system === "string" ? request.system : null,
    messages,
    tools,
    reply: reply === undefined ? null : str(reply.text),
    toolCalls: calls.map((call) => {
      const c = fieldsOf(call);
      return { id: str(c.id), name: str(c.name), arguments: json(c.arguments) };
    }),
    finishReason: reply === undefined ? null : str(reply.finishReason),
    inputTokens: usage === undefined ? null : num(usage.inputTokens),
    outputTokens: usage === undefined ? null : num(usage.outputTokens),
    costUsd: null,
    latencyMs: effect === undefined ? null : ms(effect.durationUs),
    retries: [],
    failed: failureText(effect),
    done: effect !== undefined,
  };
}

function storeTarget(fields: Fields): string {
  return str(fields.path ?? fields.prefix ?? fields.pattern);
}

function storeItem(seq: number, fields: Fields, effect: EffectRecord | undefined): StoreItem {
  const request = effect === undefined ? {} : fieldsOf(plainOf(effect.request));
  const op = str(fields.op ?? request.op);
  const changes = op === "write" || op === "append";
  const output = effect?.output === undefined ? null : plainOf(effect.output);
  return {
    type: "store",
    seq,
    effect: effect?.effect ?? null,
    op,
    target: storeTarget(fields) || storeTarget(request),
    ok: fields.ok === undefined ? effect?.failure === undefined : fields.ok === true,
    reason: typeof fields.reason === "string" ? fields.reason : null,
    change: changes && request.contents !== undefined ? textOf(request.contents) : null,
    output: op === "write" || output === null ? null : textOf(output),
    durationMs: effect === undefined ? null : ms(effect.durationUs),
  };
}

function toolItem(seq: number, fields: Fields, effect: EffectRecord | undefined): ToolItem {
  // The effect's output until the tool_result event (the text inside the envelope) is written.
  const output = effect?.output === undefined ? undefined : fieldsOf(plainOf(effect.output));
  return {
    type: "tool",
    seq,
    effect: effect?.effect ?? null,
    alias: str(fields.alias),
    tool: typeof fields.tool === "string" ? fields.tool : null,
    caller: str(fields.caller),
    callId: str(fields.tool_call_id),
    turn: num(fields.turn),
    arguments: json(fields.arguments),
    output: output === undefined ? null : str(output.text),
    trusted: output === undefined ? true : output.trusted !== false,
    failed: failureText(effect),
    durationMs: effect === undefined ? null : ms(effect.durationUs),
    done: effect !== undefined,
  };
}

/** The item a flow event shows, or undefined when the event is not one. */
function flowText(type: string, fields: Fields): string | undefined {
  const tasks = Array.isArray(fields.tasks) ? fields.tasks.map(str).join(", ") : "";
  switch (type) {
    case "task_started":
      return `task ${str(fields.task)} started → ${str(fields.target)} (by ${str(fields.by)})`;
    case "task_finished":
      return `task ${str(fields.task)} ${str(fields.outcome)}${fields.error_kind === undefined ? "" : ` (${str(fields.error_kind)})`}`;
    case "task_joined":
      return `joined tasks ${tasks}`;
    case "task_cancelled":
      return `cancelled tasks ${tasks}`;
    case "task_note":
      return `task ${str(fields.task)} note: ${str(fields.text)}`;
    case "call_started":
      return `call → ${str(fields.target)} (entry ${str(fields.child)})`;
    case "call_returned":
      return `call of entry ${str(fields.child)} ${fields.returned === true ? "returned" : "ended without a return"}`;
    case "jump":
      return `jump → ${str(fields.target)}`;
    case "store_conflict":
      return `store conflict on ${str(fields.path)} between tasks ${tasks}`;
    default:
      return undefined;
  }
}

const QUIET = new Set([
  "run_started",
  "run_finished",
  "section_entered",
  "section_completed",
  "teardown_started",
  "teardown_succeeded",
  "tool_scope_validation_started",
  "tool_call_succeeded",
]);

const ENVELOPE = new Set(["seq", "type", "execution", "chain", "entry", "section"]);

function ownFields(fields: Fields): string {
  const own: Record<string, PlainValue> = {};
  for (const [key, value] of Object.entries(fields)) if (!ENVELOPE.has(key)) own[key] = value;
  return JSON.stringify(own);
}

/** The run's tool calls by kind, as {@link RunView.toolCallKinds}. */
function toolCallKinds(events: readonly EventRecord[]): RunView["toolCallKinds"] {
  const counts = countToolCalls(events);
  return { catalog: counts.catalog, local: counts.local, taskBuiltins: counts.taskBuiltins };
}

/** The process recording a run with no ending, as {@link RunView.recordedBy}. */
function recordedBy(run: RecordedRun): RunView["recordedBy"] {
  if (run.owner === undefined || run.outcome !== "running") return null;
  const state = ownerState(run.owner);
  return { pid: run.owner.pid, host: run.owner.host, state: state === "self" ? "alive" : state };
}

/**
 * Changes whenever the run's record grows or it ends: its counts (live while it records), its
 * outcome and its resumes.
 */
export function runVersion(run: RecordedRun): string {
  return `${run.events}:${run.effects}:${run.outcome}:${run.resumes}`;
}

/** Builds a run's view from its record: entries from the events, each effect tied to its event. */
export function runView(
  run: RecordedRun,
  effects: readonly EffectRecord[],
  events: readonly EventRecord[],
): RunView {
  const pool = new EffectPool(effects);
  const entries: EntryDraft[] = [];
  const byEntry = new Map<string, EntryDraft>();
  const runItems: TimelineItem[] = [];
  const openModel = new Map<string, Mutable<ModelItem>>();
  const openTools = new Map<string, Mutable<ToolItem>>();
  const openBlocks = new Map<string, Mutable<TimelineItem & { type: "block" }>>();

  const entryOf = (id: string, section: string, chain: string): EntryDraft => {
    let draft = byEntry.get(id);
    if (draft === undefined) {
      draft = { entry: id, section, chain, via: "?", ended: null, items: [] };
      entries.push(draft);
      byEntry.set(id, draft);
    }
    return draft;
  };

  for (const event of events) {
    const fields = fieldsOf(JSON.parse(event.line) as PlainValue);
    const entryId = typeof fields.entry === "string" ? fields.entry : null;
    const section = str(fields.section);
    const { seq, type } = event;
    if (entryId === null) {
      if (!QUIET.has(type)) {
        runItems.push({ type: "event", seq, event: type, fields: ownFields(fields) });
      }
      continue;
    }
    const draft = entryOf(entryId, section, event.chain);
    const items = draft.items;
    const toolKey = `${entryId}\u0000${str(fields.tool_call_id)}\u0000${str(fields.alias)}`;
    switch (type) {
      case "section_entered":
        draft.via = str(fields.via);
        break;
      case "section_completed":
        draft.ended = str(fields.ended);
        break;
      case "chunk_started": {
        const item = { type: "block" as const, seq, block: str(fields.block), status: "running" };
        openBlocks.set(entryId, item);
        items.push(item);
        break;
      }
      case "chunk_succeeded":
      case "chunk_failed": {
        const item = openBlocks.get(entryId);
        const status = type === "chunk_failed" ? "failed" : "succeeded";
        if (item !== undefined && item.block === str(fields.block)) item.status = status;
        else items.push({ type: "block", seq, block: str(fields.block), status });
        break;
      }
      case "model_turn_started": {
        const turn = num(fields.turn);
        const via = str(fields.via);
        const effect = pool.take(entryId, "model", (r) => r.turn === turn && r.via === via);
        const item: Mutable<ModelItem> = modelItem(seq, fields, effect);
        openModel.set(entryId, item);
        items.push(item);
        break;
      }
      case "model_turn_retrying": {
        const item = openModel.get(entryId);
        const text = `attempt ${num(fields.attempt)} failed: ${str(fields.reason)}; retried after ${num(fields.delay_ms)} ms`;
        if (item !== undefined) item.retries = [...item.retries, text];
        break;
      }
      case "model_turn_completed": {
        const item = openModel.get(entryId);
        if (item === undefined) break;
        item.finishReason = str(fields.finish_reason);
        item.inputTokens = num(fields.input_tokens);
        item.outputTokens = num(fields.output_tokens);
        item.costUsd = typeof fields.cost_usd === "string" ? fields.cost_usd : null;
        item.done = true;
        break;
      }
      case "model_turn_failed": {
        const item = openModel.get(entryId);
        if (item === undefined) break;
        item.failed = `${str(fields.kind)}: ${str(fields.message)}`;
        item.done = true;
        break;
      }
      case "assistant_tool_calls":
        // The calls are on the round's reply (its effect's output) and each has its own item.
        break;
      case "tool_call_started": {
        const tool = typeof fields.tool === "string" ? fields.tool : undefined;
        const callId = str(fields.tool_call_id);
        const effect =
          tool === undefined
            ? undefined
            : pool.take(entryId, "tool", (r) => r.tool === tool && str(r.callId) === callId);
        const item: Mutable<ToolItem> = toolItem(seq, fields, effect);
        openTools.set(toolKey, item);
        items.push(item);
        break;
      }
      case "tool_call_failed": {
        const item = openTools.get(toolKey);
        if (item === undefined) break;
        item.failed = str(fields.message);
        item.done = true;
        break;
      }
      case "tool_result": {
        const item = openTools.get(toolKey);
        if (item === undefined) break;
        item.output = str(fields.content);
        item.trusted = fields.trusted === true;
        item.done = true;
        break;
      }
      case "store_op": {
        const op = str(fields.op);
        const target = storeTarget(fields);
        const effect = pool.take(
          entryId,
          "store",
          (r) => str(r.op) === op && (target === "" || storeTarget(r) === target),
        );
        items.push(storeItem(seq, fields, effect));
        break;
      }
      case "lua_checkpoint":
        items.push({ type: "log", seq, message: str(fields.message) });
        break;
      default: {
        if (QUIET.has(type)) break;
        const text = flowText(type, fields);
        if (text !== undefined) items.push({ type: "flow", seq, text });
        else items.push({ type: "event", seq, event: type, fields: ownFields(fields) });
      }
    }
  }

  // Effects no event names (a run cut short between an effect and its event): at the point the
  // run had reached when their result arrived.
  for (const effect of pool.rest()) {
    const { entry, section, chain } = effect.origin;
    const draft = entryOf(entry, section, chain);
    const seq = effect.eventsBefore + 0.5;
    const request = fieldsOf(plainOf(effect.request));
    if (effect.kind === "store") draft.items.push(storeItem(seq, {}, effect));
    else if (effect.kind === "model") draft.items.push(modelItem(seq, request, effect));
    else
      draft.items.push(
        toolItem(
          seq,
          {
            alias: str(request.name),
            tool: str(request.tool),
            caller: str(request.caller),
            tool_call_id: str(request.callId),
            arguments: request.arguments ?? null,
          },
          effect,
        ),
      );
    draft.items.sort((a, b) => a.seq - b.seq);
  }

  const entryViews: EntryView[] = entries.map((d) => ({ ...d }));
  return {
    run: runListRow(run),
    promptHash: run.promptHash,
    args: run.inputs.args,
    seed: run.inputs.seed,
    bindings: run.inputs.bindings,
    versions: run.inputs.versions,
    promptText: new TextDecoder().decode(run.inputs.promptBytes),
    toolCallKinds: toolCallKinds(events),
    resumedAt: run.resumedAt.map((at) => new Date(at).toISOString()),
    recordedBy: recordedBy(run),
    runItems,
    entries: entryViews,
    ending: endingView(run, events),
    version: runVersion(run),
  };
}
