import { describe, expect, it } from "vitest";
import { GRAB, grabs, loopRefusal, loopResult } from "./test-support";

const TWO_ROLES = "  writer: {}\n  critic: {}";

describe("models.loop's checks before anything is rendered or sent", () => {
  it("refuses more than one argument", async () => {
    const refused = await loopRefusal(
      "models.use('writer')\nmessages:user('go')\nmodels.loop(nil, 'extra')",
    );
    expect(refused.text).toBe("lua|models.loop takes (compactor?)");
    expect(refused.rounds).toBe(0);
    expect((await loopRefusal("messages:user('go')\nmodels.get('writer'):loop(nil, 1)")).text).toBe(
      "lua|handle:loop takes (compactor?)",
    );
  });

  it("refuses a compactor that is not a function", async () => {
    expect(
      (await loopRefusal("models.use('writer')\nmessages:user('go')\nmodels.loop('x')")).text,
    ).toBe("lua|compactor must be a function, got string");
    expect((await loopRefusal("messages:user('go')\nmodels.get('writer'):loop({})")).text).toBe(
      "lua|compactor must be a function, got table",
    );
    expect(
      (await loopRefusal("models.use('writer')\nmessages:user('go')\nmodels.loop(1)")).text,
    ).toBe("lua|compactor must be a function, got integer");
  });

  it("refuses a section with no model, and offers still work after it", async () => {
    expect(
      await loopResult(
        `messages:user('go')
local ok, err = pcall(models.loop)
tools.offer_local('late', 'Late', {}, function() end)
return tostring(err)`,
      ),
    ).toBe(
      "models.loop: this section has no model; call models.use(label) first, or models.default(label) in the H1 pass",
    );
  });

  it("refuses an empty messages, and offers still work after it", async () => {
    expect(
      await loopResult(
        `models.use('writer')
local ok, err = pcall(models.loop)
local ok2, err2 = pcall(models.get('writer').loop, models.get('writer'))
tools.offer_local('late', 'Late', {}, function() end)
return tostring(err) .. '|' .. tostring(err2)`,
      ),
    ).toBe(
      "models.loop: messages is empty; add the conversation's first record, such as messages:user(text), before the loop|handle:loop: messages is empty; add the conversation's first record, such as messages:user(text), before the loop",
    );
  });

  it("checks the arguments before the model and the list", async () => {
    expect((await loopRefusal("models.loop(1, 2)")).text).toBe(
      "lua|models.loop takes (compactor?)",
    );
    expect((await loopRefusal("models.loop(true)")).text).toBe(
      "lua|compactor must be a function, got boolean",
    );
  });

  it("refuses a loop where the block cannot suspend, rendering nothing", async () => {
    expect(
      await loopResult(
        `models.use('writer')
messages:user('go')
local ok, err = pcall(table.sort, { 1, 2 }, function(a, b) models.loop() return a < b end)
tools.offer_local('late', 'Late', {}, function() end)
return tostring(err)`,
      ),
    ).toMatch(/attempt to yield across a C-call boundary/);
  });

  it("refuses tools for a model that takes none, after the render", async () => {
    const lua = `models.use('writer')\n${GRAB}\nmessages:user('go')\nmodels.loop()`;
    const refused = await loopRefusal(lua, { writer: { tools: false, model: "plain-model" } });
    expect(refused.text).toBe(
      "lua|models.loop: plain-model (role writer) takes no tools, and this section offers 1; bind the role to a model that takes tools, or offer none",
    );
    expect(refused.rounds).toBe(0);
    expect(
      await loopResult("models.use('writer')\nmessages:user('go')\nreturn models.loop()", {
        writer: { tools: false },
        replies: [{ text: "no tools needed" }],
      }),
    ).toBe("no tools needed");
  });
});

describe("a loop inside a local tool handler", () => {
  for (const [call, fn] of [
    ["models.loop()", "models.loop"],
    ["models.get('writer'):loop()", "handle:loop"],
    ["models.compact(function(h) return h end)", "models.compact"],
  ] as const) {
    it(`refuses ${fn}, the model's call or the script's`, async () => {
      const handler = `tools.offer_local('inner', 'Inner', {}, function()
  local ok, err = pcall(function() ${call} end)
  return err.kind .. '|' .. tostring(err)
end)`;
      const refusal = `lua|${fn} is unavailable inside a local tool handler: the handler runs inside the loop that called it; ask a side question with models.infer`;
      expect(
        await loopResult(
          `models.use('writer')\n${handler}\nmessages:user('go')\nmodels.loop()\nreturn messages[3].content .. '#' .. tools.call('inner')`,
          {
            replies: [
              { tool_calls: [{ id: "c1", name: "inner", arguments: {} }] },
              { text: "done" },
            ],
          },
        ),
      ).toBe(`${refusal}#${refusal}`);
    });
  }

  it("lets a handler ask a side question with models.infer", async () => {
    expect(
      await loopResult(
        `models.use('writer')
tools.offer_local('ask', 'Ask', {}, function() return 'inferred ' .. models.infer('inner prompt') end)
messages:user('go')
models.loop()
return messages[3].content`,
        {
          replies: [
            { tool_calls: [{ id: "c1", name: "ask", arguments: {} }] },
            { text: "side answer" },
            { text: "done" },
          ],
        },
      ),
    ).toBe("inferred side answer");
  });
});

describe("one loop at a time per chain", () => {
  it("refuses a loop or a compaction started by a running loop's compactor", async () => {
    const run = async (inner: string) =>
      loopResult(
        `models.use('writer')
messages:user('${"x".repeat(400)}')
local seen
local ok, err = pcall(models.loop, function(history)
  local ok2, err2 = pcall(function() ${inner} end)
  seen = err2.kind .. '|' .. tostring(err2)
  return { history[1] }
end)
return seen`,
        { writer: { contextWindow: 50 } },
      ).catch((error: unknown) => String(error));
    expect(await run("models.loop()")).toBe(
      "lua|models.loop cannot start while another models.loop runs in this chain",
    );
    expect(await run("models.get('writer'):loop()")).toBe(
      "lua|handle:loop cannot start while another models.loop runs in this chain",
    );
    expect(await run("models.compact(function(h) return h end)")).toBe(
      "lua|models.compact cannot run while models.loop runs in this chain",
    );
  });

  it("releases the chain's lock however a loop ends", async () => {
    expect(
      await loopResult(
        `models.use('writer')
tools.offer_local('boom', 'Boom', {}, function() error('boom', 0) end)
messages:user('go')
local ok, err = pcall(models.loop)
local second = models.loop()
return tostring(err) .. '|' .. second`,
        {
          replies: [{ tool_calls: [{ id: "c1", name: "boom", arguments: {} }] }, { text: "again" }],
        },
      ),
    ).toBe("boom|again");
  });

  it("lets a called chain run its own loop while the caller's handler runs", async () => {
    const text = `---
name: t
description: t
runvil: 0
models:
  writer: {}
---

# T

## Main

\`\`\`lua
models.use('writer')
tools.offer_local('sub', 'Sub', {}, function() return call('## Sub') end)
messages:user('go')
return models.loop() .. '|' .. messages[3].content
\`\`\`

## Sub

\`\`\`lua
models.use('writer')
messages:user('inner')
return models.loop()
\`\`\`
`;
    const { runModelPrompt, succeeded } = await import("../models/test-support/model-run");
    const run = await runModelPrompt(text, {
      models: {
        replies: [
          { tool_calls: [{ id: "c1", name: "sub", arguments: {} }] },
          { text: "inner answer" },
          { text: "outer answer" },
        ],
      },
    });
    expect(succeeded(run)).toBe("outer answer|inner answer");
  });
});

describe("which role a loop runs on", () => {
  it("uses the handle's role for handle:loop, the section's for models.loop, fixed at start", async () => {
    const { run } = await loopRefusal(
      `models.use('writer')
messages:user('go')
models.get('critic'):loop()
models.loop()
error('done', 0)`,
      {
        declare: TWO_ROLES,
        replies: [{ text: "a" }, { text: "b" }],
      },
    );
    expect(run.port.modelRequests.map((r) => r.role)).toEqual(["critic", "writer"]);
  });

  it("keeps the role it started with when a handler switches the section's model", async () => {
    const { run } = await loopRefusal(
      `models.use('writer')
tools.offer_local('switch', 'Switch', {}, function() models.use('critic') return 'ok' end)
messages:user('go')
models.loop()
models.loop()
error('done', 0)`,
      {
        declare: TWO_ROLES,
        replies: [
          { tool_calls: [{ id: "c1", name: "switch", arguments: {} }] },
          { text: "a" },
          { text: "b" },
        ],
      },
    );
    expect(run.port.modelRequests.map((r) => r.role)).toEqual(["writer", "writer", "critic"]);
  });

  it("returns exactly one value, the final reply's text", async () => {
    expect(
      await loopResult(
        "models.use('writer')\nmessages:user('go')\nreturn select('#', models.loop())",
        {
          replies: [{ text: "hi" }],
        },
      ),
    ).toBe("1");
  });
});

describe("the section's first loop renders the tool list once", () => {
  it("sends the same schemas on every later round and loop, and refuses later offers", async () => {
    const { run } = await loopRefusal(
      `models.use('writer')
${GRAB}
messages:user('go')
models.loop()
messages:user('again')
models.loop()
tools.offer_local('late', 'Late', {}, function() end)`,
      { replies: [grabs("a"), { text: "one" }, { text: "two" }] },
    );
    const requests = run.port.modelRequests;
    expect(requests.map((r) => r.tools.map((t) => t.name))).toEqual([["grab"], ["grab"], ["grab"]]);
    expect(requests[1]?.tools).toBe(requests[0]?.tools);
    expect(requests[2]?.tools).toBe(requests[0]?.tools);
    expect(run.port.types().filter((t) => t.startsWith("tool_scope_validation"))).toEqual([
      "tool_scope_validation_started",
      "tool_scope_validation_succeeded",
    ]);
    const last = requests[0]?.tools[0];
    expect(last).toEqual({
      name: "grab",
      description: "Grab a value",
      parameters: {
        type: "object",
        properties: { value: { type: "string" } },
        required: ["value"],
      },
    });
  });
});
