import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { GRAB, loopRefusal, loopResult, runLoop } from "./test-support";

// A 400-byte record costs 104 tokens, `go` 5: the pair (109) is over a 60-token window, `go`
// alone fits.
const LONG = `messages:user(string.rep('x', 400))\nmessages:user('go')`;
const SMALL = { contextWindow: 60 };
const PRECHECK =
  "the request needs about 109 tokens (with 0 reserved for the reply), over the 60-token context window of scripted-model";

function fieldsOf(events: readonly RunEvent[], type: string): Record<string, unknown>[] {
  return events
    .filter((e) => e.type === type)
    .map(
      ({ seq: _, execution: __, chain: ___, entry: ____, section: _____, type: ______, ...rest }) =>
        rest,
    );
}

describe("a compactor passed to models.loop", () => {
  it("runs on a precheck refusal with a plain copy and the info, and the round is retried", async () => {
    const run = await runLoop(
      `models.use('writer')
${LONG}
local seen
local text = models.loop(function(history, info)
  seen = #history .. '|' .. history[2].content .. '|' .. info.reason .. '|' .. info.estimated_tokens
    .. '|' .. info.context_window .. '|' .. info.model .. '|' .. info.role .. '|' .. info.turn
    .. '|' .. info.attempt .. '|' .. info.message .. '|' .. type(history)
  return { history[2] }
end)
return seen .. '#' .. text .. '#' .. #messages`,
      { writer: SMALL, replies: [{ text: "fits now" }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe(
      `2|go|precheck|109|60|scripted-model|writer|1|1|${PRECHECK}|table#fits now#2`,
    );
    expect(run.port.modelRequests).toHaveLength(1);
    expect(run.port.modelRequests[0]?.messages).toEqual([{ role: "user", content: "go" }]);
    expect(fieldsOf(run.port.events, "compaction_started")).toEqual([
      { turn: 1, reason: "precheck", attempt: 1, records: 2, estimated_tokens: 109 },
    ]);
    expect(fieldsOf(run.port.events, "compaction_succeeded")).toEqual([
      { turn: 1, records: 1, estimated_tokens: 5 },
    ]);
    const types = run.port.types();
    expect(types.indexOf("context_precheck_failed")).toBeLessThan(
      types.indexOf("compaction_started"),
    );
    expect(fieldsOf(run.port.events, "model_turn_completed")[0]).toMatchObject({
      turn: 1,
      via: "loop",
    });
  });

  it("runs on a provider's refusal, reason provider, and retries with the same tool schemas", async () => {
    const run = await runLoop(
      `models.use('writer')
${GRAB}
${LONG}
local reason
local text = models.loop(function(history, info)
  reason = info.reason .. ':' .. info.message
  return { history[2] }
end)
return reason .. '|' .. text`,
      {
        replies: [
          {
            fail: {
              kind: "context_exhausted",
              reason: "provider",
              message: "context window exceeded",
            },
          },
          { text: "retried" },
        ],
      },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe(
      "provider:context window exceeded|retried",
    );
    const [first, second] = run.port.modelRequests;
    expect(second?.tools).toBe(first?.tools);
    expect(second?.tools.map((t) => t.name)).toEqual(["grab"]);
    expect([first?.turn, second?.turn]).toEqual([1, 1]);
    expect(second?.effect).not.toBe(first?.effect);
    expect(fieldsOf(run.port.events, "compaction_started")[0]).toMatchObject({
      reason: "provider",
    });
  });

  it("is not needed when nothing is exhausted", async () => {
    const run = await runLoop(
      `models.use('writer')\nmessages:user('go')\nreturn models.loop(function() error('never', 0) end)`,
      { replies: [{ text: "fine" }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("fine");
    expect(run.port.types()).not.toContain("compaction_started");
  });

  it("may run models.infer", async () => {
    const run = await runLoop(
      `models.use('writer')
${LONG}
return models.loop(function(history)
  return { { role = 'user', content = models.infer('summarise') } }
end)`,
      { writer: SMALL, replies: [{ text: "short" }, { text: "answered" }] },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("answered");
    expect(run.port.modelRequests.map((r) => r.via)).toEqual(["infer", "loop"]);
  });

  it("compacts at most three times per round, then raises the exhaustion", async () => {
    const { text, run } = await loopRefusal(
      `models.use('writer')
${LONG}
local calls = 0
local ok, err = pcall(models.loop, function(history)
  calls = calls + 1
  return { { role = 'user', content = string.sub(history[1].content, 5) }, history[2] }
end)
error(err.kind .. '|' .. err.reason .. '|' .. tostring(err) .. '|' .. calls, 0)`,
      { writer: SMALL },
    );
    expect(text).toBe(
      "string|context_exhausted|precheck|the request needs about 106 tokens (with 0 reserved for the reply), over the 60-token context window of scripted-model; still over after 3 compactions|3",
    );
    expect(fieldsOf(run.port.events, "compaction_started").map((e) => e.attempt)).toEqual([
      1, 2, 3,
    ]);
    expect(run.port.modelRequests).toHaveLength(0);
  });

  it("counts compactions per round: a later round may compact again", async () => {
    const run = await runLoop(
      `models.use('writer')
${GRAB}
${LONG}
local text = models.loop(function(history)
  for _, r in ipairs(history) do
    if r.content == 'go' then return { r } end
  end
end)
return text .. '|' .. #messages`,
      {
        writer: { contextWindow: 100 },
        replies: [
          { tool_calls: [{ id: "c1", name: "grab", arguments: { value: "a" } }] },
          { fail: { kind: "context_exhausted", reason: "provider", message: "full" } },
          { text: "done" },
        ],
      },
    );
    expect(run.result.outcome === "succeeded" ? run.result.result : run.result).toBe("done|2");
    expect(
      fieldsOf(run.port.events, "compaction_started").map((e) => [e.turn, e.reason, e.attempt]),
    ).toEqual([
      [1, "precheck", 1],
      [2, "provider", 1],
    ]);
  });
});

describe("a compactor's result", () => {
  const refused = async (body: string, fn = "models.loop()") =>
    (
      await loopRefusal(
        `models.use('writer')\n${LONG}\n${fn.replace("()", `(function(history, info) ${body} end)`)}`,
        { writer: SMALL },
      )
    ).text;

  it("must be a list", async () => {
    const tail =
      "; return the compacted list of records, or call compactors.fail(history, info) to give up";
    expect(await refused("return nil")).toBe(`lua|models.loop: the compactor returned nil${tail}`);
    expect(await refused("return 'x'")).toBe(
      `lua|models.loop: the compactor returned string${tail}`,
    );
    expect(await refused("return { a = 1 }")).toBe(
      `lua|models.loop: the compactor returned a table that is not a list${tail}`,
    );
    expect(await refused("return messages")).toBe(
      `lua|models.loop: the compactor returned userdata${tail}`,
    );
    expect(await refused("return nil", "models.get('writer'):loop()")).toBe(
      `lua|handle:loop: the compactor returned nil${tail}`,
    );
  });

  it("must not be empty", async () => {
    expect(await refused("return {}")).toBe(
      "lua|models.loop: the compactor returned an empty conversation",
    );
  });

  it("must be well-formed", async () => {
    expect(await refused("return { { role = 'bot', content = 'x' } }")).toBe(
      `lua|models.loop: the compactor returned a malformed conversation: record 1 has role "bot"; a record's role is system, user, assistant or tool`,
    );
    expect(await refused("return { history[2], 3 }")).toBe(
      "lua|models.loop: the compactor returned a malformed conversation: record 2 is a integer, not a record",
    );
  });

  it("must shrink the request", async () => {
    const { text, run } = await loopRefusal(
      `models.use('writer')\n${LONG}\nlocal ok, err = pcall(models.loop, function(h) return h end)\nerror(err.kind .. '|' .. err.reason .. '|' .. tostring(err), 0)`,
      { writer: SMALL },
    );
    expect(text).toBe(
      "string|context_exhausted|precheck|the compactor did not shrink the conversation (about 109 tokens before and after)",
    );
    expect(fieldsOf(run.port.events, "compaction_failed")).toEqual([
      {
        turn: 1,
        message:
          "the compactor did not shrink the conversation (about 109 tokens before and after)",
      },
    ]);
  });

  it("leaves the list as it was when refused", async () => {
    expect(
      await loopResult(
        `models.use('writer')\n${LONG}\nlocal ok = pcall(models.loop, function() return {} end)\nreturn #messages .. '|' .. messages[2].content`,
        { writer: SMALL },
      ),
    ).toBe("2|go");
  });
});

describe("a compactor that raises", () => {
  it("has its own value raised unchanged at models.loop, with compaction_failed", async () => {
    const run = await runLoop(
      `models.use('writer')
${LONG}
local own = { mine = true }
local ok, err = pcall(models.loop, function() error(own) end)
return tostring(err == own)`,
      { writer: SMALL },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("true");
    expect(fieldsOf(run.port.events, "compaction_failed")).toEqual([
      { turn: 1, message: "(error object is a table value)" },
    ]);
  });

  it("gives up with compactors.fail: the exhaustion's reason and message", async () => {
    expect(
      await loopResult(
        `models.use('writer')\n${LONG}\nlocal ok, err = pcall(models.loop, compactors.fail)\nreturn err.kind .. '|' .. err.reason .. '|' .. tostring(err)`,
        { writer: SMALL },
      ),
    ).toBe(`context_exhausted|precheck|${PRECHECK}`);
    const run = await runLoop(`models.use('writer')\n${LONG}\nmodels.loop(compactors.fail)`, {
      writer: SMALL,
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "ContextExhausted",
        value: { kind: "context_exhausted", fields: { reason: "precheck" } },
      },
    });
  });
});

describe("without a compactor", () => {
  it("raises the exhaustion at once; uncaught it ends the run as ContextExhausted", async () => {
    const run = await runLoop(`models.use('writer')\n${LONG}\nmodels.loop()`, { writer: SMALL });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "ContextExhausted",
        message: PRECHECK,
        value: { kind: "context_exhausted", fields: { reason: "precheck" } },
      },
    });
    expect(run.port.modelRequests).toHaveLength(0);
  });

  it("fixes the tool list at a first round the precheck refuses", async () => {
    expect(
      await loopResult(
        `models.use('writer')\n${LONG}\npcall(models.loop)\nlocal ok, err = pcall(tools.offer_local, 'late', 'Late', {}, function() end)\nreturn tostring(err)`,
        { writer: SMALL },
      ),
    ).toBe(
      "tools.offer_local: the section's tool list is fixed at its first models.loop round; make every offer before the first loop, or offer in another section",
    );
  });
});
