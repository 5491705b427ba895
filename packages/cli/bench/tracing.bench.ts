import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { loadEngine } from "@runvil/engine";
import { loadLuaRuntime } from "@runvil/lua";
import { createTraceProjection } from "@runvil/otel";
import { createPromptParser } from "@runvil/parser";
import type { EffectPort, RunCatalog, RunEvent } from "@runvil/protocol";
import { bench, describe } from "vitest";
import type { RunTracing } from "../src/run/run-tracing";

/**
 * Tracing cost per event (docs/design/otel.md "Cost"), on the path `runvil run` takes: one run
 * of ~3,600 events (300 rounds of a `log`, a script tool call and a `call` into a section) on
 * an in-memory effects port, with three event sinks, in paired rounds that rotate their order,
 * timed in CPU time:
 *
 * - before: the sink as it was before tracing existed (it counts the event);
 * - off: the sink as `execute-run.ts` has it with no endpoint (`tracing?.onEvent(event)`, then
 *   the count), so off − before is what tracing costs a run that does not trace;
 * - on: the projection on the SDK's BasicTracerProvider with a SimpleSpanProcessor and an
 *   InMemorySpanExporter (every span kept, then dropped between runs), so on − off is the
 *   projection and the SDK's span work per event, without any network export.
 */

const ITERATIONS = 300;
const ROUNDS = 15;

const TEXT = `---
name: traced
description: Logs, calls a tool and a section, many times.
runvil: 0
---

# Traced

## Main

\`\`\`lua
for i = 1, ${ITERATIONS} do
  log('step ' .. i)
  tools.call('bench/noop')
  call('### Helper')
end
return 'done'
\`\`\`

### Helper

\`\`\`lua
return 'helped'
\`\`\`
`;

const parsed = createPromptParser(await loadLuaRuntime())(TEXT, { path: "traced.md" });
if (!parsed.ok) throw new Error(`the bench prompt does not parse: ${parsed.error.message}`);
const prompt = parsed.prompt;
const engine = await loadEngine();
const catalog: RunCatalog = {
  tools: [
    {
      id: "bench/noop",
      pack: "bench",
      wireName: "bench_noop",
      description: "Does nothing.",
      parameters: { type: "object", properties: {} },
      structured: false,
    },
  ],
  packs: null,
  preludes: [],
  dropped: [],
  models: [],
};

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("runvil-bench");

let events = 0;
// As execute-run.ts holds it when neither --otel nor otel.endpoint is set.
const noTracing = undefined as RunTracing | undefined;
type Sink = { emit: (event: RunEvent) => void; end: () => void };
const sinks: Record<"before" | "off" | "on", () => Sink> = {
  before: () => ({
    emit: () => {
      events += 1;
    },
    end: () => {},
  }),
  off: () => ({
    emit: (event) => {
      noTracing?.onEvent(event);
      events += 1;
    },
    end: () => {},
  }),
  on: () => {
    const projection = createTraceProjection({ tracer });
    return {
      emit: (event) => {
        projection(event);
        events += 1;
      },
      end: () => {
        projection.end();
        if (exporter.getFinishedSpans().length === 0) throw new Error("no spans were made");
        exporter.reset();
      },
    };
  },
};

/** One run with a sink: its CPU time in µs. */
async function cpuRun(kind: keyof typeof sinks): Promise<number> {
  const sink = sinks[kind]();
  const effects: EffectPort = {
    // The prompt makes no store operation.
    storeOp: () => Promise.reject(new Error("no store in this bench")),
    toolCall: () => Promise.resolve({ text: "ok", trusted: true }),
    emit: sink.emit,
  };
  const start = process.cpuUsage();
  const result = await engine.run(prompt, { effects, catalog });
  sink.end();
  const used = process.cpuUsage(start);
  if (result.outcome !== "succeeded") throw new Error(`the bench run ${kind} failed`);
  return used.user + used.system;
}

events = 0;
for (const kind of ["before", "off", "on"] as const) await cpuRun(kind); // warm up
const perRun = events / 3;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const times = { before: [] as number[], off: [] as number[], on: [] as number[] };
const offMinusBefore: number[] = [];
const onMinusOff: number[] = [];
const orders = [
  ["before", "off", "on"],
  ["on", "before", "off"],
  ["off", "on", "before"],
] as const;
for (let round = 0; round < ROUNDS; round++) {
  const t = { before: 0, off: 0, on: 0 };
  for (const kind of orders[round % orders.length] ?? orders[0]) t[kind] = await cpuRun(kind);
  for (const kind of ["before", "off", "on"] as const) times[kind].push(t[kind] / perRun);
  offMinusBefore.push((t.off - t.before) / perRun);
  onMinusOff.push((t.on - t.off) / perRun);
}
const us = (value: number) => `${value.toFixed(2)} µs`;
console.log(
  [
    `tracing, one run of ${perRun} events, CPU time per event, medians of ${ROUNDS} paired rounds:`,
    `  before ${us(median(times.before))}, off ${us(median(times.off))}, on ${us(median(times.on))}`,
    `  off − before ${us(median(offMinusBefore))} per event (${(median(times.off) / median(times.before)).toFixed(3)}×)`,
    `  on − off ${us(median(onMinusOff))} per event (${(median(times.on) / median(times.off)).toFixed(3)}×)`,
  ].join("\n"),
);

describe("tracing cost per event (one run of ~3,600 events)", () => {
  bench("before: no tracing hook", async () => {
    await cpuRun("before");
  });
  bench("off: the hook with no tracer", async () => {
    await cpuRun("off");
  });
  bench("on: the projection, an in-memory exporter", async () => {
    await cpuRun("on");
  });
});
