import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import {
  type ModelPort,
  type ModelRun,
  runModelPrompt,
  succeeded,
} from "../models/test-support/model-run";
import type { ScenarioReply } from "../models/test-support/scripted-rounds";
import { TASK_BUILTIN_DEFINITIONS } from "./task-builtin-texts";

/** A prompt whose `## Main` runs `main` (Lua), followed by `rest` (more sections, as text). */
function taskPrompt(main: string, rest: string): string {
  return `---\nname: t\ndescription: t\nrunvil: 0\nmodels:\n  writer: {}\n---\n\n# T\n\n## Main\n\n\`\`\`lua\n${main}\n\`\`\`\n\n${rest}`;
}

/** A section `heading` with one Lua block. */
function section(heading: string, lua: string): string {
  return `${heading}\n\n\`\`\`lua\n${lua}\n\`\`\`\n\n`;
}

/** The block that lets the model start tasks and returns every tool record's content. */
const LOOP = `models.use('writer')
tools.allow_tasks(ALLOW)
messages:user('go')
models.loop()
local out = {}
for i = 1, #messages do
  if messages[i].role == 'tool' then out[#out + 1] = messages[i].content end
end
return table.concat(out, '\\n---\\n')`;

function loopBlock(allow = "", before = ""): string {
  return `${before}${LOOP.replace("ALLOW", allow)}`;
}

/** A model reply calling the built-ins `calls` (name, arguments), ids c1, c2, … from `first`. */
function calls(first: number, ...list: [string, Record<string, unknown>][]): ScenarioReply {
  return {
    tool_calls: list.map(([name, args], i) => ({
      id: `c${first + i}`,
      name,
      arguments: args as never,
    })),
  };
}

/** Tool record contents as the LOOP block returns them. */
function answers(run: ModelRun): string[] {
  return (succeeded(run) ?? "").split("\n---\n");
}

/**
 * Holds each model round `n` (1-based) of `holds` until its condition holds over the events so
 * far, so a round answers only once the chains it reads about have reached a known point.
 */
function holdRounds(
  port: ModelPort,
  holds: Readonly<Record<number, (events: readonly RunEvent[]) => boolean>>,
): void {
  const round = port.modelRound.bind(port);
  const emit = port.emit.bind(port);
  let count = 0;
  const waiting: { ready: (events: readonly RunEvent[]) => boolean; wake: () => void }[] = [];
  port.emit = (event) => {
    emit(event);
    for (const w of waiting.filter((w) => w.ready(port.events))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.wake();
    }
  };
  port.modelRound = async (request) => {
    const ready = holds[++count];
    if (ready !== undefined && !ready(port.events)) {
      await new Promise<void>((wake) => waiting.push({ ready, wake }));
    }
    return round(request);
  };
}

const has = (type: string, field?: [string, unknown]) => (events: readonly RunEvent[]) =>
  events.some(
    (e) =>
      e.type === type &&
      (field === undefined || (e as unknown as Record<string, unknown>)[field[0]] === field[1]),
  );

describe("the model's task built-ins", () => {
  it("start a task with the input as its item and await its text", async () => {
    const run = await runModelPrompt(
      taskPrompt(
        loopBlock("{ '### Child' }", "var.seen = 'from main'\n"),
        section(
          "### Child",
          "return 'child got ' .. item .. ' as ' .. sys.taskid .. ' in ' .. sys.id .. ' with ' .. var.seen .. ' ' .. tostring(pcall(function() return sys.index end))",
        ),
      ),
      {
        models: {
          replies: [
            calls(1, ["task", { target: " ### Child ", input: "hello" }]),
            calls(2, ["await_tasks", {}]),
            { text: "done" },
          ],
        },
      },
    );
    expect(answers(run)).toEqual([
      "Task id=0.0 started: ### Child",
      "Task id=0.0 succeeded:\nchild got hello as 0.0 in 0.0.0 with from main false",
    ]);
    const events = run.port.events;
    expect(events.find((e) => e.type === "task_started")).toMatchObject({
      task: "0.0",
      target: "### Child",
      by: "model",
      entry: "0.1",
    });
    expect(events.find((e) => e.type === "task_started")).not.toHaveProperty("index");
    expect(events.find((e) => e.type === "task_joined")).toMatchObject({ tasks: ["0.0"] });
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.alias, e.trusted, "tool" in e])).toEqual([
      ["task", true, false],
      ["await_tasks", true, false],
    ]);
    expect(
      events.filter((e) => e.type === "tool_call_succeeded").map((e) => e.tool_call_id),
    ).toEqual(["c1", "c2"]);
  });

  it("advertise the four definitions after the section's tools, the same every round", async () => {
    const run = await runModelPrompt(
      taskPrompt(
        `tools.offer_local('grab', 'Grab', {}, function() return 'got' end)\n${loopBlock()}`,
        "",
      ),
      { models: { replies: [calls(1, ["grab", {}]), { text: "done" }] } },
    );
    expect(answers(run)).toEqual(["got"]);
    for (const request of run.port.modelRequests) {
      expect(request.tools.map((t) => t.name)).toEqual([
        "grab",
        "task",
        "task_cancel",
        "task_status",
        "await_tasks",
      ]);
      expect(request.tools.slice(1)).toEqual(
        TASK_BUILTIN_DEFINITIONS.map(({ name, description, parameters }) => ({
          name,
          description,
          parameters,
        })),
      );
    }
  });

  it("answer bad task arguments, targets outside the allowlist and unknown targets with text", async () => {
    const run = await runModelPrompt(
      taskPrompt(
        loopBlock("{ '## Research', '## Draft', '## Gone' }"),
        section("## Research", "return 'r'") + section("## Draft", "return 'd'"),
      ),
      {
        models: {
          replies: [
            calls(
              1,
              ["task", {}],
              ["task", { target: 7 }],
              ["task", { target: "## Research", input: { a: 1 } }],
              ["task", { target: "## Other" }],
              ["task", { target: "## Gone" }],
              ["task", { target: "## Research", input: null }],
            ),
            { text: "done" },
          ],
        },
      },
    );
    expect(answers(run)).toEqual([
      "task: target must be a section heading string",
      "task: target must be a section heading string",
      "task: input must be a string",
      "task: target `## Other` is not allowed; allowed targets: ## Research, ## Draft, ## Gone",
      "task: section heading `## Gone` not found",
      "Task id=0.0 started: ## Research",
    ]);
    const started = run.port.events.filter((e) => e.type === "task_started");
    expect(started.map((e) => e.task)).toEqual(["0.0"]);
  });

  it("refuse a task past the call depth cap", async () => {
    // ## Main calls itself until its chain is at depth 8, where a task would pass the cap.
    const main = `local depth = tonumber(args) or 0
if depth < 8 then return call('## Main', tostring(depth + 1)) end
${loopBlock()}`;
    const run = await runModelPrompt(taskPrompt(main, ""), {
      models: { replies: [calls(1, ["task", { target: "## Main" }]), { text: "done" }] },
    });
    expect(answers(run)).toEqual(["task: call recursion exceeded cap of 8"]);
  });

  it("report each task's state and latest note, and record the observation", async () => {
    const main = loopBlock("", "tasks.concurrency(1)\n");
    const rest =
      section("## Slow", "tasks.note('first')\ntasks.note('step two\\nmore')\nstore.read('held')") +
      section("## Quick", "return 'q'") +
      section("## Broken", "error('broken here')");
    const run = await runModelPrompt(taskPrompt(main, rest), {
      models: {
        replies: [
          calls(
            1,
            ["task_status", {}],
            ["task", { target: "## Slow" }],
            ["task", { target: "## Quick" }],
          ),
          calls(4, ["task_status", {}], ["task_status", { task: "0.1" }]),
          calls(6, ["task_cancel", { task: "0.0" }], ["task", { target: "## Broken" }]),
          calls(8, ["await_tasks", { tasks: ["0.1"] }]),
          calls(9, ["task_status", {}]),
          calls(10, ["await_tasks", {}]),
          { text: "done" },
        ],
      },
      // Round 2 reads the slow task while it waits on the store, after its second note; round 5
      // once the broken task has failed.
      configure: (port) => {
        holdRounds(port, {
          2: has("task_note", ["text", "step two"]),
          5: has("task_finished", ["task", "0.2"]),
        });
        port.beforeStoreOp = () => new Promise<void>(() => undefined);
      },
    });
    const texts = answers(run);
    expect(texts).toEqual([
      "No tasks started in this section.",
      "Task id=0.0 started: ## Slow",
      "Task id=0.1 started: ## Quick",
      "Task id=0.0 running: ## Slow (note: step two)\nTask id=0.1 waiting: ## Quick",
      "Task id=0.1 waiting: ## Quick",
      "Task id=0.0 cancelled.",
      "Task id=0.2 started: ## Broken",
      "Task id=0.1 succeeded:\nq",
      "Task id=0.0 cancelled: ## Slow (note: step two)\nTask id=0.1 awaited: ## Quick\nTask id=0.2 failed: ## Broken",
      expect.stringMatching(/^Task id=0\.0 cancelled\n\nTask id=0\.2 failed: .*broken here$/),
    ]);
    const observed = run.port.events.filter((e) => e.type === "task_observed");
    // Each model round takes the entry's next effect id, and so does each observation.
    expect(observed.map((e) => [e.via, e.answer, e.effect])).toEqual([
      ["task_status", texts[3], "0.1/3"],
      ["task_status", texts[4], "0.1/4"],
      ["task_status", texts[8], "0.1/8"],
    ]);
  });

  it("answer task_status with the text a replaying port recalls", async () => {
    const main = loopBlock();
    const rest = section("## Quick", "return 'q'");
    const run = await runModelPrompt(taskPrompt(main, rest), {
      models: {
        replies: [
          calls(1, ["task", { target: "## Quick" }], ["task_status", {}]),
          { text: "done" },
        ],
      },
      configure: (port) => {
        port.recalled.set("0.1/2", "Task id=0.0 waiting: ## Quick (as recorded)");
      },
    });
    expect(answers(run)).toEqual([
      "Task id=0.0 started: ## Quick",
      "Task id=0.0 waiting: ## Quick (as recorded)",
    ]);
    expect(run.port.observations).toMatchObject([{ via: "task_status", effect: "0.1/2" }]);
    expect(
      run.port.events.filter((e) => e.type === "task_observed").map((e) => [e.answer, e.effect]),
    ).toEqual([["Task id=0.0 waiting: ## Quick (as recorded)", "0.1/2"]]);
  });

  it("await listed tasks once each in the asked order, and refuse foreign or awaited ids", async () => {
    const main = loopBlock(
      "",
      "local mine = tasks.spawn('## Quick')\nvar.script = mine.task\n",
    ).replace("return table.concat", "tasks.join({ { task = var.script } })\nreturn table.concat");
    const rest =
      section("## Quick", "return 'q ' .. tostring(item)") +
      section("## Broken", "error('broken here')") +
      section("## Silent", "local x = 1");
    const run = await runModelPrompt(taskPrompt(main, rest), {
      models: {
        replies: [
          calls(
            1,
            ["task", { target: "## Quick", input: "one" }],
            ["task", { target: "## Silent" }],
            ["task", { target: "## Broken" }],
          ),
          calls(
            4,
            ["await_tasks", { tasks: ["0.0"] }],
            ["await_tasks", { tasks: ["0.9"] }],
            ["await_tasks", { tasks: "0.1" }],
            ["await_tasks", { tasks: ["0.1", 2] }],
            ["task_cancel", {}],
            ["task_status", { task: 1 }],
          ),
          calls(10, ["await_tasks", { tasks: ["0.3", "0.2", "0.1", "0.3"] }]),
          calls(11, ["await_tasks", { tasks: ["0.1"] }], ["task_cancel", { task: "0.2" }]),
          calls(13, ["await_tasks", {}]),
          { text: "done" },
        ],
      },
    });
    expect(answers(run)).toEqual([
      "Task id=0.1 started: ## Quick",
      "Task id=0.2 started: ## Silent",
      "Task id=0.3 started: ## Broken",
      "await_tasks: task 0.0 was not started by the model in this section",
      "await_tasks: task 0.9 was not started by the model in this section",
      "await_tasks: tasks must be a list of task id strings",
      "await_tasks: tasks must be a list of task id strings",
      "task_cancel: task must be a task id string",
      "task_status: task must be a task id string",
      expect.stringMatching(
        /^Task id=0\.3 failed: section `Broken` prologue:\d+: runtime error: .*broken here\n\nTask id=0\.2 succeeded with no result\n\nTask id=0\.1 succeeded:\nq one$/,
      ),
      "await_tasks: task 0.1 was already awaited",
      "task_cancel: task 0.2 was already awaited",
      "No tasks to await.",
    ]);
    const joined = run.port.events.filter((e) => e.type === "task_joined");
    expect(joined.map((e) => e.tasks)).toEqual([["0.3", "0.2", "0.1"], ["0.0"]]);
  });

  it("cancel a task and its descendants, answer in place, and await it as cancelled", async () => {
    const rest =
      section("## Parent", "local h = tasks.spawn('### Grandchild')\ntasks.join({ h })") +
      section("### Grandchild", "store.read('held')");
    const run = await runModelPrompt(taskPrompt(loopBlock(), rest), {
      models: {
        replies: [
          calls(1, ["task", { target: "## Parent" }]),
          calls(2, ["task_cancel", { task: "0.0" }], ["task_cancel", { task: "0.0" }]),
          calls(4, ["await_tasks", {}]),
          { text: "done" },
        ],
      },
      configure: (port) => {
        holdRounds(port, { 2: has("task_started", ["task", "0.0.0"]) });
        port.beforeStoreOp = () => new Promise<void>(() => undefined);
      },
    });
    expect(answers(run)).toEqual([
      "Task id=0.0 started: ## Parent",
      "Task id=0.0 cancelled.",
      "Task id=0.0 cancelled.",
      "Task id=0.0 cancelled",
    ]);
    const finished = run.port.events.filter((e) => e.type === "task_finished");
    expect(finished.map((e) => [e.task, e.outcome])).toEqual([
      ["0.0.0", "cancelled"],
      ["0.0", "cancelled"],
    ]);
    const cancelled = run.port.events.filter((e) => e.type === "task_cancelled");
    expect(cancelled.map((e) => e.tasks)).toEqual([["0.0"]]);
  });

  it("leave the model's tasks to the script: it joins them by the Task id= text", async () => {
    const main = `models.use('writer')
tools.allow_tasks({ '## Child' })
messages:user('go')
models.loop()
local id = messages[3].content:match('^Task id=(%S+)')
local r = tasks.join({ { task = id } })
local ok, err = pcall(tasks.join, { { task = id } })
return r[1].task .. '=' .. r[1].result .. '|' .. err.kind .. '|' .. err.task`;
    const run = await runModelPrompt(taskPrompt(main, section("## Child", "return 'c'")), {
      models: { replies: [calls(1, ["task", { target: "## Child" }]), { text: "later" }] },
    });
    expect(succeeded(run)).toBe("0.0=c|task_consumed|0.0");
  });

  it("let an unawaited failed task fail its owner at the entry's end", async () => {
    const run = await runModelPrompt(
      taskPrompt(loopBlock(), section("## Broken", "error('nobody waited')")),
      { models: { replies: [calls(1, ["task", { target: "## Broken" }]), { text: "done" }] } },
    );
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Lua");
    expect(run.result.error.message).toContain("nobody waited");
  });

  it("end an await at once when the run is cancelled", async () => {
    const controller = new AbortController();
    const run = await runModelPrompt(
      taskPrompt(loopBlock(), section("## Held", "store.read('held')")),
      {
        signal: controller.signal,
        models: {
          replies: [
            calls(1, ["task", { target: "## Held" }]),
            calls(2, ["await_tasks", {}]),
            { text: "never" },
          ],
        },
        configure: (port) => {
          // The task waits on the store; the run is cancelled once the model awaits it.
          port.beforeStoreOp = () => new Promise<void>(() => undefined);
          const emit = port.emit.bind(port);
          port.emit = (event) => {
            emit(event);
            if (event.type === "tool_call_started" && event.alias === "await_tasks") {
              setImmediate(() => controller.abort());
            }
          };
        },
      },
    );
    expect(run.result.outcome).toBe("cancelled");
    const succeededCalls = run.port.events.filter((e) => e.type === "tool_call_succeeded");
    expect(succeededCalls.map((e) => e.alias)).toEqual(["task"]);
  });
});
