import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import type { RunEvent } from "@runvil/protocol";
import { runScenario } from "@runvil/testkit";
import { bench, describe } from "vitest";
import { createTraceProjection } from "../src/index";

/**
 * Tracing cost per event. One real run (the Engine through the testkit: 3 model rounds with
 * tool calls, then 200 script tool calls and 200 `log`s, ~830 events) is timed once without
 * a sink (tracing off: nothing of this package is made) and its events are then fed to a
 * projection on the SDK's BasicTracerProvider with a SimpleSpanProcessor and an exporter that
 * drops spans (tracing on, export cost left out: that is the exporter's). Before vitest's
 * tables, prints the run's cost per event, the projection's cost per event and their ratio.
 */

const prompt = `---\nname: b\ndescription: b\nrunvil: 0\nmodels:\n  writer: {}\n---\n\n# B\n\n## Main\n\n\`\`\`lua\n${[
  "models.use('writer')",
  "tools.offer({ 'stats/read' })",
  "messages:user('go')",
  "local answer = models.loop()",
  "for i = 1, 200 do",
  "  log('step ' .. i)",
  "  tools.call('stats/read')",
  "end",
  "return answer",
].join("\n")}\n\`\`\`\n`;

const call = (id: string) => ({ id, name: "stats_read", arguments: {} });

async function oneRun(): Promise<RunEvent[]> {
  const r = await runScenario({
    prompt,
    host: { fixtureTools: [{ id: "stats/read", returns: "42" }] },
    models: {
      replies: [
        { toolCalls: [call("a"), call("b")], usage: { input: 10, output: 5 } },
        { toolCalls: [call("c")], usage: { input: 20, output: 5 } },
        { text: "done", usage: { input: 30, output: 1 } },
      ],
    },
  });
  if (r.outcome !== "succeeded")
    throw new Error(`the bench run failed: ${JSON.stringify(r.error)}`);
  // The testkit's record keeps the Engine's events as plain records; they are RunEvents.
  return r.events as unknown as RunEvent[];
}

const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] });
const tracer = provider.getTracer("runvil-bench");

function project(events: readonly RunEvent[]): void {
  const sink = createTraceProjection({ tracer, providerName: () => "scripted" });
  for (const event of events) sink(event);
  sink.end();
}

await oneRun(); // warm the Engine
const runStart = performance.now();
const events = await oneRun();
const runMs = performance.now() - runStart;
for (let i = 0; i < 20; i++) project(events); // warm the projection
const ROUNDS = 50;
const projectStart = performance.now();
for (let i = 0; i < ROUNDS; i++) project(events);
const projectMs = (performance.now() - projectStart) / ROUNDS;
const perEvent = (ms: number) => `${((ms * 1e6) / events.length).toFixed(0)} ns`;
console.log(
  `tracing, one run of ${events.length} events: off (the run alone) ${runMs.toFixed(1)} ms = ${perEvent(runMs)}/event; ` +
    `on adds ${projectMs.toFixed(2)} ms = ${perEvent(projectMs)}/event; on/off ${((runMs + projectMs) / runMs).toFixed(3)}`,
);

describe("tracing cost per event", () => {
  bench("off: the events pass with no sink", () => {
    let n = 0;
    for (const event of events) n += event.seq;
    if (n === 0) throw new Error("no events");
  });
  bench("on: the events go through the projection", () => {
    project(events);
  });
});
