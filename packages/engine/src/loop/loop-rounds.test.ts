import type { RunEvent } from "@runvil/protocol";
import type { JsonValue } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { GRAB, grabs, loopRefusal, loopResult, runLoop } from "./test-support";

const START = `models.use('writer')\n${GRAB}\nmessages:user('go')`;

/** The events of these types, in order, without the envelope. */
function eventsOf(events: readonly RunEvent[], ...types: string[]): Record<string, unknown>[] {
  return events
    .filter((e) => types.includes(e.type))
    .map(({ seq: _, execution: __, chain: ___, entry: ____, section: _____, ...rest }) => rest);
}

describe("the final reply", () => {
  it("is appended as an assistant record and returned", async () => {
    expect(
      await loopResult(
        `${START}\nlocal text = models.loop()\nreturn text .. '|' .. #messages .. '|' .. messages[2].role .. '|' .. messages[2].content .. '|' .. tostring(messages[2].tool_calls)`,
        { replies: [{ text: "the answer" }] },
      ),
    ).toBe("the answer|2|assistant|the answer|nil");
  });
});

describe("a reply with no text and no tool calls", () => {
  it("raises empty_model_reply with the reply's finish_reason and appends nothing", async () => {
    const { text } = await loopRefusal(`${START}\nmodels.loop()`, {
      replies: [{ empty: { finish_reason: "length" } }],
    });
    expect(text).toBe("empty_model_reply|the model replied with no text and no tool calls");
    expect(
      await loopResult(
        `${START}\nlocal ok, err = pcall(models.loop)\nreturn err.finish_reason .. '|' .. #messages`,
        { replies: [{ empty: { finish_reason: "length" } }] },
      ),
    ).toBe("length|1");
  });

  it("counts whitespace-only text as none, and an unknown finish reason as unknown", async () => {
    expect(
      await loopResult(
        `${START}\nlocal ok, err = pcall(models.loop)\nreturn err.kind .. '|' .. err.finish_reason`,
        {
          replies: [{ text: " \n\t", finish_reason: "" }],
        },
      ),
    ).toBe("empty_model_reply|unknown");
  });

  it("ends the run as Completion when uncaught", async () => {
    const run = await runLoop(`${START}\nmodels.loop()`, {
      replies: [{ empty: { finish_reason: "length" } }],
    });
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Completion");
    expect(run.result.error.value).toEqual({
      kind: "empty_model_reply",
      fields: { finish_reason: "length" },
    });
    expect(run.result.error.causes).toEqual([
      "model round 1 of section Main on scripted-model (role writer)",
    ]);
  });

  it("ends the run as Completion with the round's cause when a refused reply is uncaught", async () => {
    const run = await runLoop(`${START}\nmodels.loop()`, {
      replies: [
        {
          tool_calls: [
            { id: "dup", name: "grab", arguments: {} },
            { id: "dup", name: "grab", arguments: {} },
          ],
        },
      ],
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "Completion",
        message: `tool call id "dup" repeats another call's id in the same reply`,
        causes: ["model round 1 of section Main on scripted-model (role writer)"],
      },
    });
  });
});

describe("the round cap", () => {
  it("raises tool_loop_exhausted at the role's max_rounds-th round, running none of its calls", async () => {
    const { text, rounds } = await loopRefusal(
      `models.use('writer')
local n = 0
tools.offer_local('grab', 'Grab', { value = 'string' }, function(args) n = n + 1 return 'g' end)
messages:user('go')
local ok, err = pcall(models.loop)
error(err.kind .. '|' .. tostring(err) .. '|' .. n .. '|' .. #messages, 0)`,
      { writer: { maxRounds: 3 }, replies: [grabs("a"), grabs("b"), grabs("c")] },
    );
    expect(text).toBe("string|tool_loop_exhausted|tool-call loop did not converge|2|5");
    expect(rounds).toBe(3);
  });

  it("defaults to 20 rounds, and ends the run as Tool when uncaught", async () => {
    const replies = Array.from({ length: 20 }, (_, i) => grabs(String(i)));
    const run = await runLoop(`${START}\nmodels.loop()`, { replies });
    expect(run.port.modelRequests).toHaveLength(20);
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Tool");
    expect(run.result.error.message).toBe("tool-call loop did not converge");
  });

  it("counts only this call's rounds, not a handler's nested round", async () => {
    expect(
      await loopResult(
        `models.use('writer')
tools.offer_local('ask', 'Ask', {}, function() return models.infer('side') end)
messages:user('go')
return models.loop()`,
        {
          writer: { maxRounds: 2 },
          replies: [
            { tool_calls: [{ id: "c1", name: "ask", arguments: {} }] },
            { text: "side" },
            { text: "done" },
          ],
        },
      ),
    ).toBe("done");
  });

  it("lets a final reply on the last round through", async () => {
    expect(
      await loopResult(`${START}\nreturn models.loop()`, {
        writer: { maxRounds: 1 },
        replies: [{ text: "at once" }],
      }),
    ).toBe("at once");
  });
});

describe("the reply checked whole", () => {
  for (const [label, calls, message] of [
    [
      "arguments that are not a JSON object",
      [
        { id: "c1", name: "grab", arguments: { value: "a" } },
        { id: "c2", name: "grab", arguments: [1, 2, 3] },
      ],
      'tool call arguments were not a JSON object (call "c2" to "grab")',
    ],
    [
      "a repeated id",
      [
        { id: "dup", name: "grab", arguments: { value: "a" } },
        { id: "dup", name: "grab", arguments: { value: "b" } },
      ],
      `tool call id "dup" repeats another call's id in the same reply`,
    ],
    [
      "a blank id",
      [
        { id: "c1", name: "grab", arguments: { value: "a" } },
        { id: "  ", name: "grab", arguments: { value: "b" } },
      ],
      "tool call id is blank (call 2 of the reply)",
    ],
    [
      "a blank name",
      [{ id: "c1", name: "", arguments: {} }],
      'tool call name is blank (call "c1")',
    ],
  ] as const) {
    it(`fails the round on ${label}: kind internal, no call runs, nothing appended`, async () => {
      const run = await runLoop(
        `models.use('writer')
local n = 0
tools.offer_local('grab', 'Grab', { value = 'string' }, function(args) n = n + 1 return 'g' end)
messages:user('go')
local ok, err = pcall(models.loop)
return err.kind .. '|' .. tostring(err) .. '|' .. n .. '|' .. #messages`,
        {
          replies: [
            { tool_calls: calls as readonly { id: string; name: string; arguments: JsonValue }[] },
          ],
        },
      );
      expect(run.result.outcome === "succeeded" ? run.result.result : run.result).toBe(
        `internal|${message}|0|1`,
      );
      expect(eventsOf(run.port.events, "model_reply_refused")).toEqual([
        { type: "model_reply_refused", turn: 1, message },
      ]);
      expect(run.port.types()).not.toContain("assistant_tool_calls");
      expect(run.port.types()).not.toContain("tool_call_started");
    });
  }
});

describe("one tool round", () => {
  it("appends the assistant record with its calls, then one tool record per call, in call order", async () => {
    expect(
      await loopResult(
        `${START}
models.loop()
local a = messages[2]
local calls = a.tool_calls
return #messages .. '|' .. a.role .. ':' .. a.content .. '|' .. #calls .. ':' .. calls[1].id .. ','
  .. calls[2].name .. ',' .. calls[2].arguments.value .. '|' .. messages[3].tool_call_id .. ':'
  .. messages[3].name .. ':' .. messages[3].content .. '|' .. messages[4].content .. '|' .. messages[5].content`,
        { replies: [{ ...grabs("a", "b"), text: "Grabbing." }, { text: "done" }] },
      ),
    ).toBe("5|assistant:Grabbing.|2:c1,grab,b|c1:grab:grabbed a|grabbed b|done");
  });

  it("lets handlers see the list as it stood before the round", async () => {
    expect(
      await loopResult(
        `models.use('writer')
local seen = {}
tools.offer_local('grab', 'Grab', { value = 'string' }, function(args)
  seen[#seen + 1] = #messages
  return 'g'
end)
messages:user('go')
models.loop()
return table.concat(seen, ',') .. '|' .. #messages`,
        { replies: [grabs("a", "b"), grabs("c"), { text: "done" }] },
      ),
    ).toBe("1,1,4|7");
  });

  it("sends the tool round's records on the next request", async () => {
    const run = await runLoop(`${START}\nmodels.loop()`, {
      replies: [grabs("a"), { text: "done" }],
    });
    const second = run.port.modelRequests[1];
    expect(second?.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "grab", arguments: { value: "a" } }],
      },
      { role: "tool", content: "grabbed a", toolCallId: "c1", toolName: "grab" },
    ]);
    expect(run.port.modelRequests.map((r) => r.via)).toEqual(["loop", "loop"]);
  });

  it("reports the batch, then each call, under the round's number", async () => {
    const run = await runLoop(`${START}\nmodels.loop()`, {
      replies: [grabs("a", "b"), { text: "done" }],
    });
    expect(
      eventsOf(
        run.port.events,
        "model_turn_completed",
        "assistant_tool_calls",
        "tool_call_started",
        "tool_call_succeeded",
        "tool_result",
      ).map((e) => [e.type, e.turn, e.tool_call_id ?? ""]),
    ).toEqual([
      ["model_turn_completed", 1, ""],
      ["assistant_tool_calls", 1, ""],
      ["tool_call_started", 1, "c1"],
      ["tool_call_succeeded", 1, "c1"],
      ["tool_result", 1, "c1"],
      ["tool_call_started", 1, "c2"],
      ["tool_call_succeeded", 1, "c2"],
      ["tool_result", 1, "c2"],
      ["model_turn_completed", 2, ""],
    ]);
    expect(eventsOf(run.port.events, "assistant_tool_calls")).toEqual([
      {
        type: "assistant_tool_calls",
        turn: 1,
        calls: [
          { id: "c1", name: "grab", arguments: { value: "a" } },
          { id: "c2", name: "grab", arguments: { value: "b" } },
        ],
      },
    ]);
  });

  it("numbers rounds per section entry, a handler's nested round included, without shifting the batch", async () => {
    const run = await runLoop(
      `models.use('writer')
tools.offer_local('ask', 'Ask', {}, function() return models.infer('side') end)
${GRAB}
messages:user('go')
models.loop()`,
      {
        replies: [
          {
            tool_calls: [
              { id: "c1", name: "ask", arguments: {} },
              { id: "c2", name: "grab", arguments: { value: "x" } },
            ],
          },
          { text: "side" },
          { text: "done" },
        ],
      },
    );
    expect(
      eventsOf(run.port.events, "model_turn_completed", "tool_result").map((e) => [
        e.type,
        e.turn,
        e.via ?? e.tool_call_id,
      ]),
    ).toEqual([
      ["model_turn_completed", 1, "loop"],
      ["model_turn_completed", 2, "infer"],
      ["tool_result", 1, "c1"],
      ["tool_result", 1, "c2"],
      ["model_turn_completed", 3, "loop"],
    ]);
  });
});

describe("a handler's failure during the loop", () => {
  it("reports the call failed and raises the handler's own value, appending nothing", async () => {
    const run = await runLoop(
      `models.use('writer')
local own = { reason = 'mine' }
local count = 0
tools.offer_local('grab', 'Grab', { value = 'string' }, function(args)
  count = count + 1
  if count == 2 then error(own) end
  return 'grabbed ' .. args.value
end)
messages:user('go')
local ok, err = pcall(models.loop)
return tostring(err == own) .. '|' .. #messages`,
      { replies: [grabs("a", "b"), { text: "never" }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("true|1");
    expect(run.port.modelRequests).toHaveLength(1);
    expect(
      eventsOf(run.port.events, "tool_call_failed", "tool_result").map((e) => [
        e.type,
        e.tool_call_id,
      ]),
    ).toEqual([
      ["tool_result", "c1"],
      ["tool_call_failed", "c2"],
    ]);
  });

  it("raises a rejected return unchanged", async () => {
    const run = await runLoop(
      `models.use('writer')
tools.offer_local('grab', 'Grab', { value = 'string' }, function(args) return { args.value } end)
messages:user('go')
models.loop()`,
      { replies: [grabs("a")] },
    );
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Lua");
    expect(run.result.error.message).toContain("cannot return a table as a result");
  });
});
