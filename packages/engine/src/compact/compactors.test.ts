import { describe, expect, it } from "vitest";
import { loopRefusal, loopResult, runLoop } from "../loop/test-support";
import { boundRole } from "../models/test-support/scripted-rounds";

// system, user (task), assistant + call, tool, assistant, user, assistant
const HISTORY = `local h = {
  { role = 'system', content = 'be brief' },
  { role = 'user', content = 'task' },
  { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'grab', arguments = { value = 'a' } } } },
  { role = 'tool', content = 'grabbed a', tool_call_id = 'c1', name = 'grab' },
  { role = 'assistant', content = 'noted' },
  { role = 'user', content = 'next' },
  { role = 'assistant', content = 'ok' },
}
local function show(list)
  local out = {}
  for i, r in ipairs(list) do out[i] = r.role .. ':' .. r.content end
  return table.concat(out, ',')
end`;

describe("the compactors table", () => {
  it("holds fail, clear, keep_last and summarize and is sealed", async () => {
    expect(
      await loopResult(
        "return type(compactors) .. '|' .. type(compactors.fail) .. type(compactors.clear) .. type(compactors.keep_last) .. type(compactors.summarize) .. '|' .. getmetatable(compactors) .. '|' .. tostring(compactors.other)",
      ),
    ).toBe("table|functionfunctionfunctionfunction|compactors is sealed|nil");
    expect((await loopRefusal("compactors.fail = 1")).text).toBe(
      "lua|compactors is read-only; cannot set 'fail'",
    );
    expect((await loopRefusal("compactors[1] = 1")).text).toBe(
      "lua|compactors is read-only; cannot set '1'",
    );
  });
});

describe("compactors.clear", () => {
  it("keeps the system records and the last user record", async () => {
    expect(await loopResult(`${HISTORY}\nreturn show(compactors.clear(h))`)).toBe(
      "system:be brief,user:next",
    );
  });

  it("refuses a history that is not a table", async () => {
    expect((await loopRefusal("compactors.clear('x')")).text).toBe(
      "lua|compactors.clear takes a list of records, got string",
    );
  });

  it("works as a loop's compactor, keeping the rendered tool list", async () => {
    const run = await runLoop(
      `models.use('writer')
tools.offer_local('grab', 'Grab', { value = 'string' }, function() return 'g' end)
messages:user(string.rep('x', 400))
messages:user('go')
return models.loop(compactors.clear)`,
      { writer: { contextWindow: 100 }, replies: [{ text: "cleared" }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("cleared");
    expect(run.port.modelRequests[0]?.messages).toEqual([{ role: "user", content: "go" }]);
    expect(run.port.modelRequests[0]?.tools.map((t) => t.name)).toEqual(["grab"]);
  });
});

describe("compactors.keep_last(n)", () => {
  it("keeps the system records, the first user record and the last n others, never inside a tool round", async () => {
    expect(await loopResult(`${HISTORY}\nreturn show(compactors.keep_last(2)(h))`)).toBe(
      "system:be brief,user:task,user:next,assistant:ok",
    );
    expect(await loopResult(`${HISTORY}\nreturn show(compactors.keep_last(4)(h))`)).toBe(
      "system:be brief,user:task,assistant:,tool:grabbed a,assistant:noted,user:next,assistant:ok",
    );
  });

  it("passes record views through", async () => {
    expect(
      await loopResult(
        "messages:user('a')\nmessages:assistant('b')\nmessages:user('c')\nlocal kept = compactors.keep_last(1)(messages:copy())\nlocal views = compactors.keep_last(1)({ messages[1], messages[2], messages[3] })\nreturn #kept .. '|' .. tostring(views[2] == messages[3])",
      ),
    ).toBe("2|true");
  });

  it("takes a positive whole number", async () => {
    for (const [arg, got] of [
      ["0", "0"],
      ["-1", "-1"],
      ["1.5", "1.5"],
      ["'2'", "string"],
      ["", "nil"],
    ] as const) {
      expect((await loopRefusal(`compactors.keep_last(${arg})`)).text).toBe(
        `lua|compactors.keep_last takes a positive whole number of records, got ${got}`,
      );
    }
  });
});

describe("compactors.fail", () => {
  it("needs the arguments a compactor receives", async () => {
    const refusal =
      "lua|compactors.fail takes (history, info): pass on the arguments your compactor received";
    expect((await loopRefusal("compactors.fail()")).text).toBe(refusal);
    expect((await loopRefusal("compactors.fail({})")).text).toBe(refusal);
    expect(
      (await loopRefusal("compactors.fail({}, { reason = 'other', message = 'x' })")).text,
    ).toBe(refusal);
  });

  it("raises context_exhausted with the reason and message it is handed", async () => {
    expect(
      (await loopRefusal("compactors.fail({}, { reason = 'provider', message = 'too long' })"))
        .text,
    ).toBe("context_exhausted|too long");
  });
});

describe("compactors.summarize(options?)", () => {
  it("checks its options where they are written", async () => {
    expect((await loopRefusal("compactors.summarize('x')")).text).toBe(
      "lua|compactors.summarize takes an options table, got string",
    );
    expect((await loopRefusal("compactors.summarize({ kep = 2 })")).text).toBe(
      "lua|compactors.summarize: unknown option kep; the known options are keep, role, instructions",
    );
    expect((await loopRefusal("compactors.summarize({ keep = 0 })")).text).toBe(
      "lua|compactors.summarize: keep must be a whole number of at least 1, got 0",
    );
    expect((await loopRefusal("compactors.summarize({ role = 'critic' })")).text).toBe(
      'lua|compactors.summarize: role must be a model role of this prompt, got "critic"',
    );
    expect((await loopRefusal("compactors.summarize({ instructions = '' })")).text).toBe(
      "lua|compactors.summarize: instructions must be a non-empty string, got an empty string",
    );
  });

  it("summarises the older records with one compact round and keeps the last `keep`", async () => {
    const run = await runLoop(
      `models.use('writer')\n${HISTORY}\nreturn show(compactors.summarize({ keep = 2 })(h))`,
      { replies: [{ text: "They grabbed a." }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe(
      "system:be brief,user:Summary of the earlier conversation:\nThey grabbed a.,user:next,assistant:ok",
    );
    const request = run.port.modelRequests[0];
    expect(request?.via).toBe("compact");
    expect(request?.tools).toEqual([]);
    expect(request?.messages).toEqual([
      {
        role: "user",
        content: [
          "Summarise the conversation below for your own later use. Keep every fact, decision, open question, tool result and identifier that later turns may need. Reply with the summary only.",
          "",
          "[2] user: task",
          '[3] assistant called grab {"value":"a"}',
          "[4] tool grab: grabbed a",
          "[5] assistant: noted",
        ].join("\n"),
      },
    ]);
  });

  it("returns the history unchanged when nothing is older than `keep`", async () => {
    const run = await runLoop(
      `${HISTORY}\nlocal s = compactors.summarize()\nreturn tostring(s(h) == h)`,
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("true");
    expect(run.port.modelRequests).toHaveLength(0);
  });

  it("runs on the loop's role in a loop, and uses its own instructions", async () => {
    const run = await runLoop(
      `models.use('critic')
messages:user(string.rep('x', 400))
messages:user('go')
local text = models.loop(compactors.summarize({ keep = 1, instructions = 'Shorten.' }))
return text .. '|' .. #messages .. '|' .. messages[1].content`,
      {
        declare: "  writer: {}\n  critic: {}",
        roles: [boundRole("writer"), boundRole("critic", { contextWindow: 100 })],
        replies: [{ text: "long x" }, { text: "done" }],
      },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe(
      "done|3|Summary of the earlier conversation:\nlong x",
    );
    expect(run.port.modelRequests.map((r) => [r.role, r.via])).toEqual([
      ["critic", "compact"],
      ["critic", "loop"],
    ]);
    expect(run.port.modelRequests[0]?.messages[0]?.content).toBe(
      "Shorten.\n\n[earlier records omitted]",
    );
  });

  it("refuses a malformed history", async () => {
    expect(
      (
        await loopRefusal(
          "models.use('writer')\ncompactors.summarize()({ { role = 'bot', content = 'x' } })",
        )
      ).text,
    ).toBe(
      `lua|compactors.summarize: record 1 has role "bot"; a record's role is system, user, assistant or tool`,
    );
  });

  it("raises an empty summary as empty_model_reply", async () => {
    expect(
      (
        await loopRefusal(
          `models.use('writer')\n${HISTORY}\ncompactors.summarize({ keep = 1 })(h)`,
          {
            replies: [{ empty: { finish_reason: "length" } }],
          },
        )
      ).text,
    ).toBe("empty_model_reply|empty model reply");
  });
});
