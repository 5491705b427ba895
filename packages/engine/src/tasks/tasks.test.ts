import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)), { args: "outer" });

describe("tasks.spawn and tasks.join", () => {
  it("runs tasks as child chains and joins their results in handle order", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local a = tasks.spawn('### Worker', 'alpha', { index = 7 })",
          "local b = tasks.spawn('### Worker', { n = 2 })",
          "assert(getmetatable(a) == nil and a.task == '0.0' and b.task == '0.1')",
          "local r = tasks.join({ b, a })",
          "return r[1].task .. '=' .. r[1].result .. ' ' .. r[2].task .. '=' .. r[2].result .. ' ' .. tostring(r[1].ok)",
        ].join("\n"),
      ),
      "### Worker",
      lua(
        [
          "local ok, index = pcall(function() return sys.index end)",
          "local i = type(item) == 'table' and item.n or item",
          "return sys.taskid .. ':' .. sys.id .. ':' .. tostring(i) .. ':' .. (ok and index or 'none') .. ':' .. args",
        ].join("\n"),
      ),
    );
    expect(resultText(r)).toBe("0.1=0.1:0.1.0:2:none:outer 0.0=0.0:0.0.0:alpha:7:outer true");
  });

  it("gives sys.index to the first entry only, json.null as a missing item, and var as a copy", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "var.n = 1",
          "local t = tasks.spawn('### First', nil, { index = 3 })",
          "var.n = 2",
          "local r = tasks.join({ t })",
          "return r[1].result .. ' ' .. var.n",
        ].join("\n"),
      ),
      "### First",
      lua("var.seen = tostring(sys.index) .. tostring(item == json.null) .. var.n\nvar.n = 99"),
      "### Second",
      lua(
        "local ok, err = pcall(function() return sys.index end)\nreturn var.seen .. ' ' .. tostring(err)",
      ),
    );
    expect(resultText(r)).toBe("3true1 runtime error: unknown sys field 'index' 2");
  });

  it("keeps a failed task's error value and re-raises it only when asked", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local t = tasks.spawn('### Beta')",
          "local r = tasks.join({ t })",
          "return tostring(r[1].ok) .. '|' .. r[1].result.kind .. '|' .. tostring(string.find(tostring(r[1].result), 'beta boom', 1, true) ~= nil)",
        ].join("\n"),
      ),
      "### Beta",
      lua("error('beta boom')"),
    );
    expect(resultText(r)).toBe("false|lua|true");
  });

  it("runs the tasks concurrently: a task waiting on a call lets another run", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local a = tasks.spawn('### A')\nlocal b = tasks.spawn('### B')\nlocal r = tasks.join({ a, b })\nreturn r[1].result .. ',' .. r[2].result",
      ),
      "### A",
      lua("store.write('a.txt', 'A')\nreturn call('#### Leaf', 'a')"),
      "#### Leaf",
      lua("return 'leaf-' .. args"),
      "### B",
      lua("store.write('b.txt', 'B')\nreturn call('#### Leaf2', 'b')"),
      "#### Leaf2",
      lua("return 'leaf-' .. args"),
    );
    expect(resultText(r)).toBe("leaf-a,leaf-b");
    expect((await r.port.files())["a.txt"]).toBe("A");
  });

  it("shares the child counter with call", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local c = call('### Leaf')\nlocal t = tasks.spawn('### Leaf')\nlocal r = tasks.join({ t })\nreturn c .. ' ' .. t.task .. ' ' .. r[1].result",
      ),
      "### Leaf",
      lua("return sys.id"),
    );
    expect(resultText(r)).toBe("0.0.0 0.1 0.1.0");
  });

  it("refuses bad arguments catchably, with the chapters' and our messages", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local out = {}",
          "local function try(f, ...) local ok, e = pcall(f, ...) out[#out + 1] = e.kind .. ':' .. tostring(e) end",
          "try(tasks.spawn, 42)",
          "try(tasks.spawn, '## Missing')",
          "try(tasks.spawn, '### W', { f = function() end })",
          "try(tasks.spawn, '### W', nil, 5)",
          "try(tasks.spawn, '### W', nil, { other = 1 })",
          "try(tasks.spawn, '### W', nil, { index = 0 })",
          "try(tasks.spawn, '### W', nil, { index = 1.5 })",
          "try(tasks.spawn, '### W', nil, nil, 4)",
          "try(tasks.join, 'x')",
          "try(tasks.join, { task = '0.0' })",
          "try(tasks.join, { 5 })",
          "try(tasks.join)",
          "try(tasks.join_any, {})",
          "try(tasks.cancel, 3)",
          "try(tasks.concurrency, 0)",
          "try(tasks.concurrency, 2.5)",
          "try(tasks.concurrency, 'x')",
          "return table.concat(out, '\\n')",
        ].join("\n"),
      ),
      "### W",
      lua("return 'w'"),
    );
    expect(resultText(r)?.split("\n")).toEqual([
      "lua:section target must be a string",
      "lua:section heading `## Missing` not found",
      "lua:item.f must be JSON data, got function",
      "lua:tasks.spawn: options must be a table, got integer",
      "lua:tasks.spawn: unknown option other",
      "lua:tasks.spawn: index must be a positive whole number, got 0",
      "lua:tasks.spawn: index must be a positive whole number, got 1.5",
      "lua:tasks.spawn takes (target, item?, options?)",
      "lua:tasks.join takes a list of task handles, got string",
      "lua:tasks.join takes a list of task handles; wrap a single handle as { handle }",
      "lua:tasks.join: entry 1 is not a task handle, got integer",
      "lua:tasks.join takes (handles)",
      "lua:tasks.join_any takes at least one task handle",
      "lua:tasks.cancel takes a task handle or a list of them, got integer",
      "lua:tasks.concurrency takes a positive whole number, got 0",
      "lua:tasks.concurrency takes a positive whole number, got 2.5",
      "lua:tasks.concurrency takes a positive whole number, got string",
    ]);
  });

  it("raises task_consumed, task_not_owned and tasks_live with their fields", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local out = {}",
          "local function try(f, ...) local ok, e = pcall(f, ...) out[#out + 1] = e.kind .. ':' .. tostring(e.task or e.tasks) .. ':' .. tostring(e) end",
          "local a = tasks.spawn('### W')",
          "local b = tasks.spawn('### W')",
          "try(tasks.concurrency, 2)",
          "tasks.join({ a })",
          "try(tasks.join, { a })",
          "try(tasks.cancel, a)",
          "try(tasks.join, { { task = '9.9' } })",
          "try(tasks.join, { b, b })",
          "out[#out + 1] = tostring(tasks.concurrency())",
          "tasks.join({ b })",
          "out[#out + 1] = tostring(tasks.concurrency(1000)) .. ' ' .. tostring(tasks.concurrency(3.0))",
          "return table.concat(out, '\\n')",
        ].join("\n"),
      ),
      "### W",
      lua("return 'w'"),
    );
    expect(resultText(r)?.split("\n")).toEqual([
      "tasks_live:0.0,0.1:tasks.concurrency cannot change while tasks are live: 0.0,0.1; join or cancel them first",
      "task_consumed:0.0:tasks.join: task 0.0 was already joined",
      "task_consumed:0.0:tasks.cancel: task 0.0 was already joined",
      "task_not_owned:9.9:tasks.join: task 9.9 was not started by this section entry",
      "lua:nil:tasks.join: task 0.1 is listed twice",
      "8",
      "256 3",
    ]);
  });

  it("refuses a handle of another section entry as task_not_owned", async () => {
    const r = await run(
      "# T",
      "## A",
      lua("var.h = tasks.spawn('### W')\ntasks.join({ var.h })"),
      "### W",
      lua("return 'w'"),
      "## B",
      lua(
        "local ok, e = pcall(tasks.join, { { task = var.h.task } })\nreturn e.kind .. ' ' .. e.task",
      ),
    );
    expect(resultText(r)).toBe("task_not_owned 0.0");
  });
});

describe("tasks.join_any and tasks.cancel", () => {
  it("takes one finished task and its position; a cancelled task joins as cancelled with task", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local slow = tasks.spawn('### Slow')",
          "local fast = tasks.spawn('### Fast')",
          "local e, i = tasks.join_any({ slow, fast })",
          "tasks.cancel(slow)",
          "tasks.cancel({ slow })",
          "local r = tasks.join({ slow })",
          "return e.result .. ' ' .. i .. ' ' .. r[1].result.kind .. ' ' .. r[1].result.task .. ' ' .. tostring(r[1].result)",
        ].join("\n"),
      ),
      "### Slow",
      lua("while true do store.write('spin.txt', 'on') end"),
      "### Fast",
      lua("return 'fast'"),
    );
    expect(resultText(r)).toBe("fast 2 cancelled 0.0 task 0.0 was cancelled");
  });

  it("records join_any's choice as an observation that takes the entry's next effect id", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local e = tasks.join_any({ tasks.spawn('### W') })\nstore.write('after.txt', e.result)\nreturn e.task",
      ),
      "### W",
      lua("return 'w'"),
    );
    expect(resultText(r)).toBe("0.0");
    const observed = r.port.events.filter((e) => e.type === "task_observed");
    expect(observed).toMatchObject([
      { via: "join_any", answer: "0.0", effect: "0.1/1", entry: "0.1" },
    ]);
    expect(r.port.requests.map((request) => request.effect)).toEqual(["0.1/2"]);
  });

  it("takes the task a replaying port recalls, waiting for it, and records that choice", async () => {
    const port = new MemoryPort({ held: "x" });
    port.recalled.set("0.1/1", "0.0");
    // Live, the fast task finishes first; the recalled choice is the slow one.
    port.beforeStoreOp = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    const r = await runTestPrompt(
      promptText(
        body(
          "# T",
          "## Main",
          lua(
            "local e, i = tasks.join_any({ tasks.spawn('### Slow'), tasks.spawn('### Fast') })\nreturn e.task .. ' ' .. i .. ' ' .. e.result",
          ),
          "### Slow",
          lua("store.read('held')\nreturn 'slow'"),
          "### Fast",
          lua("return 'fast'"),
        ),
      ),
      { port },
    );
    expect(resultText(r)).toBe("0.0 1 slow");
    expect(port.observations).toMatchObject([
      { via: "join_any", effect: "0.1/1", origin: { entry: "0.1", chain: "0" } },
    ]);
    expect(port.events.filter((e) => e.type === "task_observed")).toMatchObject([
      { via: "join_any", answer: "0.0", effect: "0.1/1" },
    ]);
  });

  it("observes live when the recalled task is not one of those listed", async () => {
    const port = new MemoryPort();
    port.recalled.set("0.1/1", "9.9");
    const r = await runTestPrompt(
      promptText(
        body(
          "# T",
          "## Main",
          lua("return tasks.join_any({ tasks.spawn('### W') }).task"),
          "### W",
          lua("return 'w'"),
        ),
      ),
      { port },
    );
    expect(resultText(r)).toBe("0.0");
  });

  it("makes a finished but unjoined task read cancelled once it is cancelled", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local t = tasks.spawn('### W')\ntasks.join_any({ tasks.spawn('### W') })\ntasks.cancel(t)\nreturn tasks.join({ t })[1].result.kind",
      ),
      "### W",
      lua("return 'w'"),
    );
    expect(resultText(r)).toBe("cancelled");
  });

  it("starts no more than the concurrency limit at once, in id order", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "tasks.concurrency(1)",
          "local hs = {}",
          "for i = 1, 3 do hs[i] = tasks.spawn('### W', i) end",
          "local r = tasks.join(hs)",
          "return r[1].result .. r[2].result .. r[3].result",
        ].join("\n"),
      ),
      "### W",
      // One path per task: concurrent appends to one path are a Determinism conflict.
      lua("store.write('order/' .. item, 'x')\nreturn tostring(item)"),
    );
    expect(resultText(r)).toBe("123");
    const written = r.port.requests.map((q) => ("path" in q.operation ? q.operation.path : ""));
    expect(written).toEqual(["order/1", "order/2", "order/3"]);
    const started = r.port.events.filter((e) => e.type === "section_entered").map((e) => e.chain);
    expect(started).toEqual(["0", "0", "0.0", "0.1", "0.2"]);
  });
});

describe("task lifetimes", () => {
  it("waits at the end of an entry for live tasks, and fails with the lowest failed id", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("tasks.spawn('### Ok')\ntasks.spawn('### Bad', 'one')\ntasks.spawn('### Bad', 'two')"),
      "### Ok",
      lua("store.write('ok.txt', 'done')\nreturn 'ok'"),
      "### Bad",
      lua("error('bad ' .. item)"),
    );
    const error = failureOf(r);
    expect(error.kind).toBe("Lua");
    expect(error.message).toContain("bad one");
    expect((await r.port.files())["ok.txt"]).toBe("done");
  });

  it("ends a section with live tasks that succeed normally, dropping their results", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("tasks.spawn('### W')"),
      "### W",
      lua("store.write('w.txt', 'w')\nreturn 'dropped'"),
      "## Next",
      lua("return store.read('w.txt')"),
    );
    expect(resultText(r)).toBe("w");
    const types = r.port.events.map((e) => e.type);
    expect(types.filter((t) => t.startsWith("task_"))).toEqual([
      "task_started",
      "task_joined",
      "task_finished",
    ]);
  });

  it("cancels the live tasks of an entry that fails", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("tasks.spawn('### Spin')\nerror('owner fails')"),
      "### Spin",
      lua("while true do store.write('spin.txt', 'on') end"),
    );
    expect(headline(failureOf(r))).toContain("owner fails");
    const finished = r.port.events.find((e) => e.type === "task_finished");
    expect(finished).toMatchObject({ task: "0.0", outcome: "cancelled" });
  });

  it("reaches every live task with a run cancel", async () => {
    const text = promptText(
      body(
        "# T",
        "## Main",
        lua("local t = tasks.spawn('### Spin')\ntasks.join({ t })"),
        "### Spin",
        lua("while true do store.write('spin.txt', 'on') end"),
      ),
    );
    const port = new MemoryPort();
    // The cancel source asks once the task has run (its first store op).
    const running = runTestPrompt(text, {
      port,
      shouldCancel: () => port.types().includes("store_op"),
    });
    const r = await running;
    expect(r.result.outcome).toBe("cancelled");
    expect(r.port.events.find((e) => e.type === "task_finished")).toMatchObject({
      outcome: "cancelled",
    });
  });

  it("caps spawn recursion at 8 with the call message (Quota uncaught)", async () => {
    const r = await run("# T", "## Main", lua("tasks.spawn('## Main')"));
    const error = failureOf(r);
    expect(error.kind).toBe("Quota");
    expect(headline(error)).toContain("call recursion exceeded cap of 8");
  });

  it("tasks.note reports the calling task's note: its first line, at most 256 characters", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        [
          "local ok1, e1 = pcall(tasks.note, 5)",
          "local ok2, e2 = pcall(tasks.note)",
          "tasks.note('main')",
          "tasks.join({ tasks.spawn('### W') })",
          "return tostring(e1) .. '|' .. tostring(e2)",
        ].join("\n"),
      ),
      "### W",
      lua("tasks.note('step one\\nignored')\ntasks.note(string.rep('x', 300))\nreturn 'w'"),
    );
    expect(resultText(r)).toBe("text must be a string, got integer|tasks.note takes (text)");
    const notes = r.port.events.flatMap((e) => (e.type === "task_note" ? [[e.task, e.text]] : []));
    expect(notes).toEqual([
      ["0", "main"],
      ["0.0", "step one"],
      ["0.0", "x".repeat(256)],
    ]);
  });
});
