import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { RunEvent } from "@runvil/protocol";
import { runScenario } from "@runvil/testkit";
import { describe, expect, it } from "vitest";
import { createTraceProjection } from "./trace-projection";

const lua = (lines: string[]): string => `\`\`\`lua\n${lines.join("\n")}\n\`\`\``;

/** A prompt with a model role; its sections after the frontmatter. */
function prompt(...parts: string[]): string {
  return `---\nname: t\ndescription: t\nrunvil: 0\nmodels:\n  writer: {}\n---\n\n${parts.join("\n\n")}\n`;
}

/** Feeds events to a fresh projection on an in-memory exporter; returns the finished spans. */
function project(
  events: readonly RunEvent[],
  providerName?: (m: string) => string,
): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const sink = createTraceProjection({
    tracer: provider.getTracer("runvil-test"),
    ...(providerName === undefined ? {} : { providerName }),
  });
  for (const event of events) sink(event);
  sink.end();
  return exporter.getFinishedSpans();
}

/** The testkit's run record keeps the Engine's events as plain records; they are RunEvents. */
const eventsOf = (r: { events: Record<string, unknown>[] }): RunEvent[] =>
  r.events as unknown as RunEvent[];

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The span tree as indented names, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const ordered = [...spans].sort((a, b) => {
    const t = a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];
    return t !== 0 ? t : spans.indexOf(a) - spans.indexOf(b);
  });
  const out: string[] = [];
  const walk = (parent: string | undefined, depth: number): void => {
    for (const s of ordered) {
      if (parentOf(s) !== parent) continue;
      out.push(`${"  ".repeat(depth)}${s.name}`);
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return out;
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

const toolRun = prompt(
  "# T",
  "## Main",
  lua([
    "models.use('writer')",
    "tools.offer({ 'stats/read', 'stats/broken' })",
    "messages:user('Read the stats.')",
    "local answer = models.loop()",
    "local t = tasks.spawn('### Worker', 'w')",
    "local joined = tasks.join({ t })",
    "return answer .. '|' .. call('### Helper') .. '|' .. joined[1].result",
  ]),
  "### Worker",
  lua(["log('working')", "return 'worked ' .. item"]),
  "### Helper",
  lua(["return tools.call('stats/read')"]),
);

async function modelAndToolsRun(): Promise<RunEvent[]> {
  const r = await runScenario({
    prompt: toolRun,
    host: {
      fixtureTools: [
        { id: "stats/read", returns: "42" },
        { id: "stats/broken", fails: "the stats are down" },
      ],
    },
    models: {
      replies: [
        {
          toolCalls: [
            { id: "call_1", name: "stats_read", arguments: {} },
            { id: "call_2", name: "stats_broken", arguments: {} },
          ],
          usage: { input: 120, output: 30 },
        },
        { text: "done", usage: { input: 200, output: 5 } },
      ],
    },
  });
  expect(r.outcome).toBe("succeeded");
  expect(r.result).toBe("done|42|worked w");
  return eventsOf(r);
}

describe("createTraceProjection", () => {
  it("makes the span tree of a model-and-tools run: run, entries, rounds, tool calls, chains, tasks", async () => {
    const spans = project(await modelAndToolsRun(), () => "scripted");
    expect(tree(spans)).toEqual([
      "runvil.run",
      "  runvil.section T",
      "  runvil.section Main",
      "    chat scripted-model",
      "      execute_tool stats/read",
      "      execute_tool stats/broken",
      "    chat scripted-model",
      "    runvil.task ### Worker",
      "      runvil.section Worker",
      "    runvil.chain ### Helper",
      "      runvil.section Helper",
      "        execute_tool stats/read",
    ]);
    const ids = new Set(spans.map((s) => s.spanContext().traceId));
    expect(ids.size).toBe(1);
  });

  it("writes the GenAI attributes of model rounds and tool calls", async () => {
    const spans = project(await modelAndToolsRun(), (model) => `p-${model}`);
    const [first, second] = spans.filter((s) => s.name === "chat scripted-model");
    expect(first?.kind).toBe(SpanKind.CLIENT);
    expect(first?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted-model",
      "gen_ai.provider.name": "p-scripted-model",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 30,
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "runvil.model.role": "writer",
      "runvil.model.turn": 1,
      "runvil.model.via": "loop",
      "runvil.model.tool_calls": 2,
    });
    expect(second?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 200,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.response.finish_reasons": ["stop"],
      "runvil.model.turn": 2,
    });
    const modelCalls = spans.filter((s) => s.attributes["runvil.tool.caller"] === "model");
    expect(modelCalls.map((s) => s.attributes)).toEqual([
      {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "stats/read",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": "call_1",
        "runvil.tool.alias": "stats_read",
        "runvil.tool.caller": "model",
        "runvil.model.turn": 1,
      },
      {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "stats/broken",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": "call_2",
        "runvil.tool.alias": "stats_broken",
        "runvil.tool.caller": "model",
        "runvil.model.turn": 1,
        "error.type": "ToolFailure",
      },
    ]);
    expect(modelCalls.map((s) => s.status)).toEqual([
      { code: SpanStatusCode.UNSET },
      { code: SpanStatusCode.ERROR, message: expect.stringContaining("the stats are down") },
    ]);
    const scriptCall = spans.find((s) => s.attributes["runvil.tool.caller"] === "script");
    expect(scriptCall?.attributes["gen_ai.tool.call.id"]).toBeUndefined();
  });

  it("writes Runvil's attributes on the run, entries, chains and tasks", async () => {
    const spans = project(await modelAndToolsRun());
    const run = only(spans, "runvil.run");
    expect(run.attributes).toMatchObject({
      "runvil.run.title": "T",
      "runvil.run.outcome": "succeeded",
    });
    expect(typeof run.attributes["runvil.execution"]).toBe("string");
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    expect(only(spans, "runvil.section Main").attributes).toMatchObject({
      "runvil.section.name": "Main",
      "runvil.chain.id": "0",
      "runvil.entry.via": "walk",
      "runvil.entry.ended": "return",
    });
    expect(only(spans, "runvil.task ### Worker").attributes).toEqual({
      "runvil.task.id": "0.0",
      "runvil.chain.id": "0.0",
      "runvil.task.target": "### Worker",
      "runvil.task.by": "script",
      "runvil.task.outcome": "succeeded",
    });
    const worker = only(spans, "runvil.section Worker");
    expect(worker.attributes).toMatchObject({
      "runvil.chain.id": "0.0",
      "runvil.entry.via": "task",
    });
    expect(worker.events.map((e) => [e.name, e.attributes])).toEqual([
      ["runvil.log", { "runvil.message": "working" }],
    ]);
    expect(only(spans, "runvil.chain ### Helper").attributes).toMatchObject({
      "runvil.call.target": "### Helper",
      "runvil.call.returned": true,
    });
    expect(spans.find((s) => s.attributes["gen_ai.provider.name"] !== undefined)).toBeUndefined();
  });

  it("marks a failed run, its failing entry and a failed model round as errors", async () => {
    const r = await runScenario({
      prompt: prompt(
        "# T",
        "## Main",
        lua([
          "models.use('writer')",
          "messages:user('go')",
          "local ok, err = pcall(models.loop)",
          "error('after ' .. tostring(err and err.kind))",
        ]),
      ),
      models: { replies: [{ fail: { kind: "internal", message: "the provider broke" } }] },
    });
    expect(r.outcome).toBe("failed");
    const spans = project(eventsOf(r));
    const round = only(spans, "chat scripted-model");
    expect(round.status).toEqual({ code: SpanStatusCode.ERROR, message: "the provider broke" });
    expect(round.attributes["error.type"]).toBe("internal");
    const main = only(spans, "runvil.section Main");
    expect(main.status.code).toBe(SpanStatusCode.ERROR);
    expect(main.attributes["error.type"]).toBe("ChunkFailed");
    const run = only(spans, "runvil.run");
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes).toMatchObject({
      "runvil.run.outcome": "failed",
      "error.type": r.error?.kind,
    });
    expect(spans.every((s) => s.ended)).toBe(true);
  });

  it("fails a task's span and what it left open when the task fails", async () => {
    const r = await runScenario({
      prompt: prompt(
        "# T",
        "## Main",
        lua([
          "local t = tasks.spawn('### Worker')",
          "local joined = tasks.join({ t })",
          "return tostring(joined[1].ok)",
        ]),
        "### Worker",
        lua(["error('no')"]),
      ),
    });
    expect(r.result).toBe("false");
    const spans = project(eventsOf(r));
    const task = only(spans, "runvil.task ### Worker");
    expect(task.status.code).toBe(SpanStatusCode.ERROR);
    expect(task.attributes["runvil.task.outcome"]).toBe("failed");
    expect(only(spans, "runvil.section Worker").status.code).toBe(SpanStatusCode.ERROR);
    expect(only(spans, "runvil.run").status.code).toBe(SpanStatusCode.UNSET);
  });

  it("ends every open span at end() for a run that stopped reporting, and refuses later events", async () => {
    const events = await modelAndToolsRun();
    const cut = events.findIndex((e) => e.type === "tool_call_started");
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const sink = createTraceProjection({ tracer: provider.getTracer("t") });
    for (const event of events.slice(0, cut + 1)) sink(event);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([
      "runvil.section T",
      "chat scripted-model",
    ]);
    sink.end();
    sink.end();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([
      "runvil.section T",
      "chat scripted-model",
      "execute_tool stats/read",
      "runvil.section Main",
      "runvil.run",
    ]);
    const next = events[cut + 1] as RunEvent;
    expect(() => sink(next)).toThrow(
      `@runvil/otel: event ${next.seq} (${next.type}) arrived after the run's trace ended; make one projection per run`,
    );
  });

  it("parents the run span on the given context", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer("t");
    const outer = tracer.startSpan("job");
    const sink = createTraceProjection({ tracer, context: trace.setSpan(ROOT_CONTEXT, outer) });
    const r = await runScenario({ prompt: prompt("# T", "## Main", lua(["return 'x'"])) });
    for (const event of eventsOf(r)) sink(event);
    outer.end();
    const run = only(exporter.getFinishedSpans(), "runvil.run");
    expect(parentOf(run)).toBe(outer.spanContext().spanId);
    expect(run.spanContext().traceId).toBe(outer.spanContext().traceId);
  });
});
