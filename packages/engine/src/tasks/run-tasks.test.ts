import { describe, expect, it } from "vitest";
import { boundRole } from "../models/test-support/scripted-rounds";
import { parseForTest } from "../test-support/parse";
import { prepareScenario } from "../tools/test-support/scenario-host";
import { openSectionVm } from "../tools/test-support/section-vm";
import { ToolPort } from "../tools/test-support/tool-port";
import {
  MAX_UNFINISHED_TASKS_PER_RUN,
  RunTasks,
  runTasksQuotaMessage,
  setRunTasks,
} from "./run-tasks";
import { taskBuiltins } from "./task-builtins";

describe("RunTasks", () => {
  it("admits tasks up to its limit and counts them out as they finish", () => {
    const run = new RunTasks(2);
    run.admit();
    run.admit();
    expect(run.full).toBe(true);
    expect(() => run.admit()).toThrow("tasks.spawn: the run already has 2 unfinished tasks");
    run.release();
    expect(run.unfinished).toBe(1);
    run.admit();
    expect(run.unfinished).toBe(2);
  });

  it("refuses a release with nothing admitted and a limit that is not a positive whole number", () => {
    expect(() => new RunTasks().release()).toThrow("released more tasks than admitted");
    expect(() => new RunTasks(0)).toThrow("positive whole number, got 0");
    expect(() => new RunTasks(1.5)).toThrow("got 1.5");
    expect(new RunTasks().limit).toBe(MAX_UNFINISHED_TASKS_PER_RUN);
  });

  it("makes room for a fanout's arms together or refuses them all", () => {
    const run = new RunTasks(3);
    run.admit();
    run.checkArms(2);
    run.admitArm();
    run.admitArm();
    expect(run.unfinished).toBe(3);
    run.release();
    expect(() => run.checkArms(2)).toThrow(
      "tasks.fanout: 2 arms would pass the run's limit of 3 unfinished tasks",
    );
    run.checkArms(1);
  });

  it("keeps each task's latest note", () => {
    const run = new RunTasks();
    expect(run.noteOf("0.0")).toBeUndefined();
    run.setNote("0.0", "a");
    run.setNote("0.0", "b");
    expect(run.noteOf("0.0")).toBe("b");
  });

  it("words the guard's refusal with its limit", () => {
    expect(runTasksQuotaMessage(MAX_UNFINISHED_TASKS_PER_RUN)).toBe(
      "tasks.spawn: the run already has 100000 unfinished tasks",
    );
  });
});

describe("the run-wide task guard", () => {
  const text = [
    "---",
    "name: t",
    "description: t",
    "runvil: 0",
    "models:",
    "  writer: {}",
    "---",
    "",
    "# T",
    "",
    "## Only",
    "",
    "```lua",
    "return 1",
    "```",
    "",
    "### Held",
    "",
    "```lua",
    "store.read('held.txt')",
    "```",
    "",
    "### Quick",
    "",
    "```lua",
    "return item",
    "```",
    "",
  ].join("\n");

  async function section(limit: number, hold = true) {
    const prepared = await prepareScenario(await parseForTest(text));
    const port = new ToolPort(prepared, {
      replies: [
        { tool_calls: [{ id: "c1", name: "task", arguments: { target: "### Held" } }] },
        { text: "done" },
      ],
    });
    // Every task waits on the store until the test ends.
    if (hold) port.beforeStoreOp = () => new Promise<void>(() => undefined);
    const vm = await openSectionVm(text, port, {
      ...prepared.catalog,
      models: [boundRole("writer")],
    });
    vm.entry.ctx.taskBuiltins = taskBuiltins;
    const run = new RunTasks(limit);
    setRunTasks(vm.entry.ctx, run);
    return { vm, run };
  }

  it("refuses the spawn past the run's limit as a quota, waiting tasks counted", async () => {
    const { vm, run } = await section(2);
    try {
      const [text] = await vm.run(`tasks.concurrency(1)
local a = tasks.spawn('### Held')
local b = tasks.spawn('### Held')
local ok, err = pcall(tasks.spawn, '### Held')
return err.kind .. '|' .. tostring(err)`);
      expect(text).toBe("lua|tasks.spawn: the run already has 2 unfinished tasks");
      expect(run.unfinished).toBe(2);
      expect(vm.entry.taskSet.liveIds()).toEqual(["0.0", "0.1"]);
    } finally {
      vm.close();
    }
  });

  it("refuses a fanout whose arms would pass the limit before any arm starts, and counts arms out", async () => {
    const { vm, run } = await section(2, false);
    try {
      const [text] =
        await vm.run(`local ok, err = pcall(tasks.fanout, '### Quick', { 'a', 'b', 'c' })
local r = tasks.fanout('### Quick', { 'a', 'b' })
return err.kind .. '|' .. tostring(err) .. '|' .. table.concat(r, ',')`);
      expect(text).toBe(
        "lua|tasks.fanout: 3 arms would pass the run's limit of 2 unfinished tasks|a,b",
      );
      expect(run.unfinished).toBe(0);
    } finally {
      vm.close();
    }
  });

  it("answers the model's task past the limit with the refusal, naming the built-in", async () => {
    const { vm, run } = await section(1);
    try {
      const [text] = await vm.run(`tasks.spawn('### Held')
models.use('writer')
tools.allow_tasks()
messages:user('go')
models.loop()
return messages[3].content`);
      expect(text).toBe("task: the run already has 1 unfinished tasks");
      expect(run.unfinished).toBe(1);
    } finally {
      vm.close();
    }
  });
});
