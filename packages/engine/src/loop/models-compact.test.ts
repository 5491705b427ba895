import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { GRAB, loopRefusal, loopResult, runLoop } from "./test-support";

function fieldsOf(events: readonly RunEvent[], type: string): Record<string, unknown>[] {
  return events
    .filter((e) => e.type === type)
    .map(
      ({ seq: _, execution: __, chain: ___, entry: ____, section: _____, type: ______, ...rest }) =>
        rest,
    );
}

const TWO = "messages:user('first request')\nmessages:user('go')";

describe("models.compact(compactor)", () => {
  it("replaces the list with the compactor's result now, reason explicit, with no shrink check", async () => {
    const run = await runLoop(
      `models.use('writer')
${TWO}
local seen
models.compact(function(history, info)
  seen = #history .. '|' .. info.reason .. '|' .. info.estimated_tokens .. '|' .. info.context_window
    .. '|' .. info.model .. '|' .. info.role .. '|' .. info.turn .. '|' .. info.attempt .. '|' .. info.message
  return { history[2] }
end)
local first = seen .. '#' .. #messages .. '|' .. messages[1].content
models.compact(function(history) return history end)
return first .. '#' .. #messages`,
      {},
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe(
      "2|explicit|13|200000|scripted-model|writer|1|1|models.compact asked to compact the conversation (about 13 tokens of the 200000-token context window of scripted-model)#1|go#1",
    );
    expect(run.port.modelRequests).toHaveLength(0);
    expect(fieldsOf(run.port.events, "compaction_started")[0]).toEqual({
      turn: 1,
      reason: "explicit",
      attempt: 1,
      records: 2,
      estimated_tokens: 13,
    });
    expect(fieldsOf(run.port.events, "compaction_succeeded")[0]).toEqual({
      turn: 1,
      records: 1,
      estimated_tokens: 5,
    });
  });

  it("counts the rendered tools in its estimate, and a loop runs after it", async () => {
    expect(
      await loopResult(
        `models.use('writer')
${GRAB}
messages:user('go')
models.loop()
local estimate
models.compact(function(history, info) estimate = info.estimated_tokens .. '|' .. info.turn return history end)
messages:user('again')
return estimate .. '|' .. models.loop()`,
        { replies: [{ text: "one" }, { text: "two" }] },
      ),
    ).toBe("53|2|two");
  });

  it("gives up through compactors.fail with reason explicit", async () => {
    const run = await runLoop(`models.use('writer')\n${TWO}\nmodels.compact(compactors.fail)`);
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "ContextExhausted",
        value: { kind: "context_exhausted", fields: { reason: "explicit" } },
      },
    });
  });

  it("checks its arguments, the handler, the model and the list", async () => {
    expect((await loopRefusal(`models.use('writer')\n${TWO}\nmodels.compact()`)).text).toBe(
      "lua|models.compact takes (compactor)",
    );
    expect(
      (await loopRefusal(`models.use('writer')\n${TWO}\nmodels.compact(compactors.clear, 1)`)).text,
    ).toBe("lua|models.compact takes (compactor)");
    expect((await loopRefusal(`models.use('writer')\n${TWO}\nmodels.compact(nil)`)).text).toBe(
      "lua|compactor must be a function, got nil",
    );
    expect((await loopRefusal(`${TWO}\nmodels.compact(compactors.clear)`)).text).toBe(
      "lua|models.compact: this section has no model; call models.use(label) first, or models.default(label) in the H1 pass",
    );
    expect((await loopRefusal("models.use('writer')\nmodels.compact(compactors.clear)")).text).toBe(
      "lua|models.compact: messages is empty",
    );
  });

  it("refuses a result that is not a well-formed list, changing nothing", async () => {
    expect(
      await loopResult(
        `models.use('writer')
${TWO}
local ok, err = pcall(models.compact, function() return 'x' end)
local ok2, err2 = pcall(models.compact, function() return { { role = 'tool', content = 'x', tool_call_id = 'c', name = 'n' } } end)
return tostring(err) .. '#' .. tostring(err2) .. '#' .. #messages`,
      ),
    ).toBe(
      "models.compact: the compactor returned string; return the compacted list of records, or call compactors.fail(history, info) to give up#models.compact: the compactor returned a malformed conversation: record 1 is a tool record that answers no call#2",
    );
  });

  it("raises a compactor's own value unchanged, and releases the chain's lock", async () => {
    expect(
      await loopResult(
        `models.use('writer')
${TWO}
local own = {}
local ok, err = pcall(models.compact, function() error(own) end)
models.compact(compactors.clear)
return tostring(err == own) .. '|' .. #messages`,
      ),
    ).toBe("true|1");
  });
});
