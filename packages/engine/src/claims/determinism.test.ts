import type { RunCatalog } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt, type TestRunOptions } from "../test-support/run-prompt";

const run = (parts: string[], options: TestRunOptions = {}) =>
  runTestPrompt(promptText(body(...parts)), options);

const fan = (main: string, worker: string, options: TestRunOptions = {}) =>
  run(["# T", "## Main", lua(main), "### Worker", lua(worker)], options);

function withPrelude(source: string): RunCatalog {
  return { tools: [], packs: null, preludes: [{ pack: "kit", source }], dropped: [], models: [] };
}

const CONFLICT =
  "store conflict: tasks 0.0 and 0.1 use `same.txt` concurrently, and at least one of them changes it";

describe("the store claim rule", () => {
  it("ends the run as Determinism when two arms write one path, whatever pcall says", async () => {
    for (const write of [
      "store.write('same.txt', item)",
      "pcall(function() store.write('same.txt', item) end)",
    ]) {
      const r = await fan(`tasks.fanout('### Worker', { 'a', 'b' })\nreturn 'unreached'`, write);
      const error = failureOf(r);
      expect(error.kind).toBe("Determinism");
      expect(headline(error)).toBe(CONFLICT);
      expect(error.value).toBeUndefined();
      const types = r.port.types();
      expect(types.indexOf("store_conflict")).toBeGreaterThan(-1);
      expect(types.indexOf("store_conflict")).toBeLessThan(types.indexOf("run_finished"));
      const conflict = r.port.events.find((e) => e.type === "store_conflict");
      expect(conflict).toMatchObject({ path: "same.txt", tasks: ["0.0", "0.1"] });
      expect(r.port.requests.filter((q) => q.operation.op === "write")).toHaveLength(1);
    }
  });

  it("judges logical concurrency: arms that run one at a time still conflict", async () => {
    const r = await fan(
      "tasks.concurrency(1)\ntasks.fanout('### Worker', { 'a', 'b' })",
      "store.write('same.txt', item)",
    );
    expect(headline(failureOf(r))).toBe(CONFLICT);
  });

  it("ends the run when each arm's prelude writes one path at install time", async () => {
    const r = await fan(
      "tasks.fanout('### Worker', { 'a', 'b' })\nreturn 'unreached'",
      "return item",
      { catalog: withPrelude("pcall(function() store.write('seeded.txt', 'seed') end)") },
    );
    const error = failureOf(r);
    expect(error.kind).toBe("Determinism");
    expect(headline(error)).toContain("use `seeded.txt` concurrently");
  });

  it("lets the section that ran the prelude before the arms write the same path", async () => {
    const r = await run(["# T", "## Main", lua("return 'walked'")], {
      catalog: withPrelude("store.write('seeded.txt', 'seed')"),
    });
    expect(resultText(r)).toBe("walked");
  });

  it("accepts writes before the arms start, reads in the arms, and reads after the fanout", async () => {
    const r = await fan(
      [
        "store.write('in.txt', 'shared')",
        "local r = tasks.fanout('### Worker', { 'a', 'b' })",
        "return store.read('out/0.0') .. store.read('out/0.1') .. #store.list('out')",
      ].join("\n"),
      "store.write('out/' .. sys.taskid, store.read('in.txt') .. item)",
    );
    expect(resultText(r)).toBe("shareda" + "sharedb" + "2");
  });

  it("orders a spawned task's write before its owner's read only once it is joined", async () => {
    const joined = await fan(
      "local t = tasks.spawn('### Worker', 'x')\ntasks.join({ t })\nreturn store.read('t.txt')",
      "store.write('t.txt', item)",
    );
    expect(resultText(joined)).toBe("x");
    const racing = await fan(
      [
        "local t = tasks.spawn('### Worker', 'x')",
        "store.write('gate.txt', 'g')",
        "local ok = pcall(store.read, 't.txt')",
        "tasks.join({ t })",
      ].join("\n"),
      "store.write('t.txt', item)",
    );
    expect(failureOf(racing).kind).toBe("Determinism");
  });

  it("orders the tasks a failed task tore down before its owner's later accesses", async () => {
    const port = new MemoryPort();
    let leafWrote: () => void = () => undefined;
    const wrote = new Promise<void>((resolve) => {
      leafWrote = resolve;
    });
    port.beforeStoreOp = async (request) => {
      const path = "path" in request.operation ? String(request.operation.path) : "";
      if (path === "g.txt" && request.origin.task === "0.0.0") leafWrote();
      if (path === "gate.txt") await wrote; // the leaf's write is issued before Mid fails
    };
    const r = await run(
      [
        "# T",
        "## Main",
        lua(
          "local j = tasks.join({ tasks.spawn('### Mid') })\nstore.write('g.txt', 'owner')\nreturn tostring(j[1].ok) .. ' ' .. store.read('g.txt')",
        ),
        "### Mid",
        lua("tasks.spawn('#### Leaf')\npcall(store.exists, 'gate.txt')\nerror('mid fails')"),
        "#### Leaf",
        lua("store.write('g.txt', 'leaf')\nreturn 'leaf'"),
      ],
      { port },
    );
    expect(resultText(r)).toBe("false owner");
  });

  it("orders the end-of-entry wait before the next section's accesses", async () => {
    const r = await run([
      "# T",
      "## Main",
      lua("tasks.spawn('### Worker', 'x')"),
      "### Worker",
      lua("store.write('t.txt', item)\nreturn 'w'"),
      "## Next",
      lua("store.write('t.txt', 'again')\nreturn store.read('t.txt')"),
    ]);
    expect(resultText(r)).toBe("again");
  });
});
