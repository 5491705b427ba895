import {
  type Attributes,
  type Context,
  context as contextApi,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { RunEvent, RunEventOf } from "@runvil/protocol";
import * as A from "./attributes";

/** Options of {@link createTraceProjection}. */
export interface TraceProjectionOptions {
  /** Where the spans are made: `trace.getTracer("runvil")` of the application's provider. */
  readonly tracer: Tracer;
  /** The run span's parent context (default: the active context when the run starts). */
  readonly context?: Context;
  /**
   * The provider name of a catalog model id (`gen_ai.provider.name`, such as `openai`); the
   * events name the model only. Without it, or when it answers undefined, the attribute is left
   * out.
   */
  readonly providerName?: (model: string) => string | undefined;
}

/**
 * An event sink: call it with each of one run's events in emission order (a RunPort's
 * `onEvent`), then `end()` when the run is over. `end()` ends every span still open (a run
 * that stopped reporting); after a `run_finished` event it has nothing left to do.
 */
export interface TraceProjection {
  (event: RunEvent): void;
  /** Ends every span still open; idempotent. */
  end(): void;
}

/** One span the projection has open (or keeps as a parent), with the spans opened under it. */
interface Node {
  readonly span: Span;
  readonly context: Context;
  /** The node that ends it if it is still open when that one ends (its span parent, or for a
   * model call the entry: the round that asked for it has already ended). */
  readonly parent: Node | undefined;
  readonly children: Set<Node>;
  ended: boolean;
  failed: boolean;
}

const SEP = "\u0000";

/**
 * Projects one run's events onto OpenTelemetry spans: a `runvil.run` span; a `runvil.section`
 * span per section entry; a `runvil.chain` span per `call` and a `runvil.task` span per task
 * (a child of the entry that started it), under which that chain's entries sit; a
 * `chat {model}` span per model round (GenAI conventions) under its entry; an
 * `execute_tool {tool}` span per tool call, under the round that asked for it (a model call)
 * or its entry (a script call). Nothing is made until the first event arrives.
 */
export function createTraceProjection(options: TraceProjectionOptions): TraceProjection {
  const { tracer, providerName } = options;
  let run: Node | undefined;
  let finished = false;
  const chains = new Map<string, Node>();
  const entries = new Map<string, Node>();
  const rounds = new Map<string, Node>();
  const tools = new Map<string, Node>();

  const open = (
    name: string,
    parent: Node | undefined,
    attributes: Attributes,
    kind: SpanKind = SpanKind.INTERNAL,
    owner: Node | undefined = parent,
  ): Node => {
    const parentContext =
      parent === undefined ? (options.context ?? contextApi.active()) : parent.context;
    const span = tracer.startSpan(name, { kind, attributes }, parentContext);
    const node: Node = {
      span,
      context: trace.setSpan(parentContext, span),
      parent: owner,
      children: new Set(),
      ended: false,
      failed: false,
    };
    owner?.children.add(node);
    return node;
  };

  const fail = (node: Node, errorType: string, message?: string): void => {
    node.failed = true;
    node.span.setAttribute(A.ERROR_TYPE, errorType);
    node.span.setStatus(
      message === undefined
        ? { code: SpanStatusCode.ERROR }
        : { code: SpanStatusCode.ERROR, message },
    );
  };

  /** Ends a node after every node still open under it; those fail with `interrupted` if given. */
  const close = (node: Node, interrupted?: string): void => {
    if (node.ended) return;
    for (const child of node.children) {
      if (interrupted !== undefined && !child.ended && !child.failed) fail(child, interrupted);
      close(child, interrupted);
    }
    node.ended = true;
    node.span.end();
    node.parent?.children.delete(node);
  };

  const startRun = (event: RunEvent): Node => {
    const node = open(A.SPAN_RUN, undefined, {
      [A.RUNVIL_EXECUTION]: event.execution,
      [A.RUNVIL_RUN_TITLE]: event.section,
    });
    run = node;
    chains.set(event.chain, node);
    return node;
  };

  const entryKey = (event: RunEvent): string => `${event.chain}${SEP}${event.entry ?? ""}`;
  const roundKey = (event: RunEvent, turn: number): string => `${entryKey(event)}${SEP}${turn}`;
  const toolKey = (
    event: RunEventOf<"tool_call_started" | "tool_call_succeeded" | "tool_call_failed">,
  ) => `${entryKey(event)}${SEP}${event.tool_call_id}${SEP}${event.alias}`;

  /** The innermost span an event belongs to: its entry, else its chain, else the run. */
  const scopeOf = (event: RunEvent, root: Node): Node =>
    entries.get(entryKey(event)) ?? chains.get(event.chain) ?? root;

  const forgetEntry = (key: string): void => {
    entries.delete(key);
    const prefix = `${key}${SEP}`;
    for (const k of rounds.keys()) if (k.startsWith(prefix)) rounds.delete(k);
    for (const k of tools.keys()) if (k.startsWith(prefix)) tools.delete(k);
  };

  const project = (event: RunEvent): void => {
    if (finished) {
      throw new Error(
        `@runvil/otel: event ${event.seq} (${event.type}) arrived after the run's trace ended; make one projection per run`,
      );
    }
    const root = run ?? startRun(event);
    switch (event.type) {
      case "run_started":
        return;
      case "section_entered": {
        const key = entryKey(event);
        const node = open(`${A.SPAN_SECTION} ${event.section}`, chains.get(event.chain) ?? root, {
          [A.RUNVIL_SECTION_NAME]: event.section,
          [A.RUNVIL_ENTRY_ID]: event.entry ?? "",
          [A.RUNVIL_CHAIN_ID]: event.chain,
          [A.RUNVIL_ENTRY_VIA]: event.via,
        });
        entries.set(key, node);
        return;
      }
      case "section_completed": {
        const key = entryKey(event);
        const node = entries.get(key);
        if (node === undefined) return;
        node.span.setAttribute(A.RUNVIL_ENTRY_ENDED, event.ended);
        close(node);
        forgetEntry(key);
        return;
      }
      case "chunk_failed": {
        const node = scopeOf(event, root);
        node.span.addEvent("runvil.chunk_failed", { [A.RUNVIL_BLOCK]: event.block });
        fail(node, "ChunkFailed", `${event.block} failed`);
        return;
      }
      case "lua_checkpoint":
        scopeOf(event, root).span.addEvent("runvil.log", { [A.RUNVIL_MESSAGE]: event.message });
        return;
      case "jump":
        scopeOf(event, root).span.addEvent("runvil.jump", { [A.RUNVIL_TARGET]: event.target });
        return;
      case "call_started": {
        const node = open(`${A.SPAN_CHAIN} ${event.target}`, scopeOf(event, root), {
          [A.RUNVIL_CHAIN_ID]: event.child,
          [A.RUNVIL_CALL_TARGET]: event.target,
        });
        chains.set(event.child, node);
        return;
      }
      case "call_returned": {
        const node = chains.get(event.child);
        if (node === undefined) return;
        node.span.setAttribute(A.RUNVIL_CALL_RETURNED, event.returned);
        close(node);
        chains.delete(event.child);
        return;
      }
      case "task_started": {
        const attributes: Attributes = {
          [A.RUNVIL_TASK_ID]: event.task,
          [A.RUNVIL_CHAIN_ID]: event.task,
          [A.RUNVIL_TASK_TARGET]: event.target,
          [A.RUNVIL_TASK_BY]: event.by,
        };
        if (event.index !== undefined) attributes[A.RUNVIL_TASK_INDEX] = event.index;
        chains.set(
          event.task,
          open(`${A.SPAN_TASK} ${event.target}`, scopeOf(event, root), attributes),
        );
        return;
      }
      case "task_finished": {
        const node = chains.get(event.task);
        if (node === undefined) return;
        node.span.setAttribute(A.RUNVIL_TASK_OUTCOME, event.outcome);
        if (event.outcome === "failed") fail(node, event.error_kind ?? "failed");
        close(node, event.outcome === "failed" ? (event.error_kind ?? "failed") : undefined);
        chains.delete(event.task);
        return;
      }
      case "task_note": {
        const node = chains.get(event.task) ?? scopeOf(event, root);
        node.span.addEvent("runvil.task_note", { [A.RUNVIL_MESSAGE]: event.text });
        return;
      }
      case "model_turn_started": {
        const attributes: Attributes = {
          [A.GEN_AI_OPERATION_NAME]: A.OPERATION_CHAT,
          [A.GEN_AI_REQUEST_MODEL]: event.model,
          [A.RUNVIL_MODEL_ROLE]: event.role,
          [A.RUNVIL_MODEL_TURN]: event.turn,
          [A.RUNVIL_MODEL_VIA]: event.via,
          [A.RUNVIL_MODEL_MESSAGES]: event.messages,
          [A.RUNVIL_MODEL_TOOLS]: event.tools,
          [A.RUNVIL_MODEL_ESTIMATED_TOKENS]: event.estimated_tokens,
        };
        const provider = providerName?.(event.model);
        if (provider !== undefined) attributes[A.GEN_AI_PROVIDER_NAME] = provider;
        const node = open(
          `${A.OPERATION_CHAT} ${event.model}`,
          scopeOf(event, root),
          attributes,
          SpanKind.CLIENT,
        );
        rounds.set(roundKey(event, event.turn), node);
        return;
      }
      case "model_turn_retrying": {
        const node = rounds.get(roundKey(event, event.turn));
        node?.span.addEvent("runvil.model.retry", {
          [A.RUNVIL_ATTEMPT]: event.attempt,
          [A.RUNVIL_REASON]: event.reason,
        });
        return;
      }
      case "model_turn_completed": {
        const node = rounds.get(roundKey(event, event.turn));
        if (node === undefined) return;
        node.span.setAttributes({
          [A.GEN_AI_RESPONSE_FINISH_REASONS]: [event.finish_reason],
          [A.GEN_AI_USAGE_INPUT_TOKENS]: event.input_tokens,
          [A.GEN_AI_USAGE_OUTPUT_TOKENS]: event.output_tokens,
          [A.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: event.cached_input_tokens,
          [A.RUNVIL_USAGE_REASONING_TOKENS]: event.reasoning_tokens,
          [A.RUNVIL_MODEL_TOOL_CALLS]: event.tool_calls,
        });
        close(node);
        return;
      }
      case "model_turn_failed": {
        const node = rounds.get(roundKey(event, event.turn));
        if (node === undefined) return;
        fail(node, event.kind, event.message);
        close(node);
        return;
      }
      case "tool_call_started": {
        const round =
          event.caller === "model" ? rounds.get(roundKey(event, event.turn)) : undefined;
        const name = event.tool ?? event.alias;
        const attributes: Attributes = {
          [A.GEN_AI_OPERATION_NAME]: A.OPERATION_EXECUTE_TOOL,
          [A.GEN_AI_TOOL_NAME]: name,
          [A.GEN_AI_TOOL_TYPE]: "function",
          [A.RUNVIL_TOOL_ALIAS]: event.alias,
          [A.RUNVIL_TOOL_CALLER]: event.caller,
          [A.RUNVIL_MODEL_TURN]: event.turn,
        };
        if (event.tool_call_id !== "") attributes[A.GEN_AI_TOOL_CALL_ID] = event.tool_call_id;
        const scope = scopeOf(event, root);
        tools.set(
          toolKey(event),
          open(
            `${A.OPERATION_EXECUTE_TOOL} ${name}`,
            round ?? scope,
            attributes,
            SpanKind.INTERNAL,
            scope,
          ),
        );
        return;
      }
      case "tool_call_succeeded":
      case "tool_call_failed": {
        const key = toolKey(event);
        const node = tools.get(key);
        if (node === undefined) return;
        if (event.type === "tool_call_failed") fail(node, "ToolFailure", event.message);
        close(node);
        tools.delete(key);
        return;
      }
      case "tool_dropped":
        root.span.addEvent("runvil.tool_dropped", {
          [A.GEN_AI_TOOL_NAME]: event.tool,
          [A.RUNVIL_REASON]: event.reason,
        });
        return;
      case "store_conflict":
        root.span.addEvent("runvil.store_conflict", {
          [A.RUNVIL_TARGET]: event.path,
          [A.RUNVIL_TASK_ID]: [...event.tasks],
        });
        return;
      case "run_finished": {
        root.span.setAttribute(A.RUNVIL_RUN_OUTCOME, event.outcome);
        if (event.stopped === true) root.span.setAttribute(A.RUNVIL_RUN_STOPPED, true);
        const errorType = event.outcome === "failed" ? (event.error_kind ?? "failed") : undefined;
        if (errorType !== undefined) fail(root, errorType);
        finish(errorType);
        return;
      }
      default:
        return;
    }
  };

  const finish = (interrupted?: string): void => {
    finished = true;
    if (run !== undefined) close(run, interrupted);
    chains.clear();
    entries.clear();
    rounds.clear();
    tools.clear();
  };

  return Object.assign(project, {
    end: (): void => {
      if (!finished) finish();
    },
  });
}
