import { createJournalPort } from "@runvil/journal";
import type { RunEvent, StoreRequest } from "@runvil/protocol";
import { NO_RUN_USAGE } from "@runvil/protocol";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { runVersion, runView } from "../src/run-view";
import { type Inspector, startInspector } from "../src/server";
import { tempJournal } from "../src/test-runs";

/**
 * What the inspector costs on a big run: a run of 2,000 store writes (each with its store_op
 * event), as `runView` builds its view from the records, and as the API answers it (the whole
 * view, and a poll of a run that has not changed).
 */
const WRITES = 2000;
let made: Awaited<ReturnType<typeof tempJournal>>;
let inspector: Inspector;
let runId = "";
let version = "";
const signal = new AbortController().signal;

beforeAll(async () => {
  made = await tempJournal();
  const recorder = await made.journal.startRun({
    promptPath: "big.md",
    promptBytes: new TextEncoder().encode("# Big\n"),
    args: "",
    seed: "1",
    startedAt: Date.now(),
    host: {},
    bindings: {},
    versions: {},
  });
  const port = createJournalPort(
    {
      async storeOp() {
        return undefined as never;
      },
      emit() {},
    },
    recorder,
  );
  let seq = 0;
  const emit = (type: string, fields: object) => {
    seq += 1;
    port.effects.emit({
      seq,
      type,
      execution: "b",
      chain: "0",
      entry: "0.0",
      section: "Big",
      ...fields,
    } as RunEvent);
  };
  emit("section_entered", { via: "h1" });
  for (let i = 1; i <= WRITES; i += 1) {
    const request: StoreRequest = {
      operation: { op: "write", path: `n/${i}.md`, contents: "x".repeat(200) },
      origin: { execution: "b", chain: "0", entry: "0.0", section: "Big", task: "0" },
      effect: `0.0/${i}`,
      signal,
    };
    await port.effects.storeOp(request);
    emit("store_op", { op: "write", path: `n/${i}.md`, ok: true });
  }
  await port.finish({
    outcome: "succeeded",
    result: "done",
    var: {},
    events: seq,
    usage: NO_RUN_USAGE,
  });
  runId = recorder.runId;
  const run = await made.journal.findRun(runId);
  if (run === undefined) throw new Error("no run");
  version = runVersion(run);
  inspector = await startInspector({ journal: made.journal, port: 0 });
});

afterAll(async () => {
  await inspector.close();
  await made.remove();
});

describe(`a run of ${WRITES} store writes`, () => {
  bench("read the records and build the view (runView)", async () => {
    const run = await made.journal.findRun(runId);
    if (run === undefined) throw new Error("no run");
    const [effects, events] = [
      await made.journal.readEffects(runId),
      await made.journal.readEvents(runId),
    ];
    runView(run, effects, events);
  });

  bench("GET /api/runs/ID (read, build, send)", async () => {
    await (await fetch(`${inspector.url}/api/runs/${runId}`)).text();
  });

  bench("GET /api/runs/ID?version=V (a poll of an unchanged run)", async () => {
    await (await fetch(`${inspector.url}/api/runs/${runId}?version=${version}`)).text();
  });
});
