import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { promptText } from "../test-support/parse";
import type { OperatorAnswer, ScenarioHost } from "./test-support/scenario-host";
import { runToolCase, type ToolCaseExtras, type ToolCaseRun } from "./test-support/tool-case";
import { JUMP_IN_HANDLER_MESSAGE } from "./tool-messages";

const PAGE = "https://www.lua.org/";

/** Runs one section `## Only` whose block is `code`, on the default scenario Host. */
async function only(
  code: string,
  options: {
    uses?: string;
    host?: ScenarioHost;
    operator?: OperatorAnswer[];
  } & ToolCaseExtras = {},
): Promise<ToolCaseRun> {
  const text = promptText(
    `# T\n\n## Only\n\n\`\`\`lua\n${code}\n\`\`\`\n`,
    options.uses === undefined ? "" : `uses: [${options.uses}]\n`,
  );
  return runToolCase(
    {
      name: "t",
      prompt: text.replace(/\n$/, "").split("\n"),
      web: { pages: { [PAGE]: "Lua page" } },
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.operator === undefined ? {} : { operator: options.operator }),
      expect: {},
    },
    options,
  );
}

function result(run: ToolCaseRun): string | null {
  if (run.result.outcome !== "succeeded") throw new Error(JSON.stringify(run.result));
  return run.result.result;
}

/** The tool events, without the envelope. */
function toolEvents(run: ToolCaseRun): Record<string, unknown>[] {
  return run.port.events
    .filter((e) => e.type.startsWith("tool_"))
    .map((e: RunEvent) => {
      const { seq, execution, chain, entry, section, ...rest } = e;
      return rest;
    });
}

describe("script calls to catalog tools", () => {
  it("send the Harness one request with the tool, the name used and the arguments", async () => {
    const run = await only(
      `tools.call('web/fetch', { url = '${PAGE}', n = 1, none = json.null, list = json.array() })
       tools.call('user-input/ask')`,
      { operator: ["hi"] },
    );
    expect(result(run)).toBeNull();
    const [fetch, ask] = run.port.toolRequests;
    expect(fetch).toMatchObject({
      tool: "web/fetch",
      name: "web_fetch",
      arguments: { url: PAGE, n: 1, none: null, list: [] },
      caller: "script",
      callId: "",
      effect: "0.1/1",
      origin: { execution: "run-1", chain: "0", entry: "0.1", section: "Only", task: "0" },
    });
    expect(ask).toMatchObject({ tool: "user-input/ask", arguments: {}, effect: "0.1/2" });
  });

  it("report started, succeeded and the result, with the envelope as content", async () => {
    const run = await only(`return tools.call('web/fetch', { url = '${PAGE}' })`);
    const text = result(run);
    expect(text).toMatch(/^The text inside the untrusted_input_[0-9a-f]{32} XML tags/);
    const call = { turn: 0, tool_call_id: "", alias: "web_fetch", tool: "web/fetch" };
    expect(toolEvents(run)).toEqual([
      { type: "tool_call_started", ...call, caller: "script", arguments: { url: PAGE } },
      { type: "tool_call_succeeded", ...call, caller: "script" },
      { type: "tool_result", ...call, content: text, trusted: false },
    ]);
  });

  it("report a failure with no tool_result", async () => {
    const run = await only("pcall(tools.call, 'web/fetch', {})");
    expect(toolEvents(run).map((e) => [e.type, e.message])).toEqual([
      ["tool_call_started", undefined],
      ["tool_call_failed", "tool call failure: web_fetch: missing url argument"],
    ]);
  });

  it("give a generic failure for a rejection that is not a ToolFailure", async () => {
    const run = await only(
      "local ok, err = pcall(tools.call, 'web/search', { query = 'x' })\nreturn err.kind .. '|' .. tostring(err)",
      {
        configure: (port) => {
          port.toolCall = () => Promise.reject(new Error("socket reset"));
        },
      },
    );
    expect(result(run)).toBe("tool|tool call failure: web_search: the tool failed");
  });

  it("reach no tool and count nothing when the name is unbound", async () => {
    const run = await only(
      "local ok, err = pcall(tools.call, 'web_fetch')\nreturn err.kind .. '|' .. err.name .. '|' .. tostring(tools.calls)",
    );
    expect(result(run)).toBe("unbound_tool|web_fetch|nil");
    expect(toolEvents(run)).toEqual([]);
    expect(run.port.toolRequests).toEqual([]);
  });

  it("refuse to dispatch where the block cannot suspend", async () => {
    const run = await only(
      "local ok, err = pcall(table.sort, { 2, 1 }, function(a, b) tools.call('web/fetch', { url = 'x' }) return a < b end)\nreturn tostring(err) .. '|' .. tostring(tools.calls)",
    );
    expect(result(run)).toBe("attempt to yield across a C-call boundary|nil");
    expect(run.port.toolRequests).toEqual([]);
  });

  it("end the run as Tool with the structured tool's invalid JSON message", async () => {
    const run = await only("return tools.call('stats/read')", {
      host: {
        fixture_tools: [
          {
            id: "stats/read",
            description: "Reads.",
            parameters: { type: "object", properties: {} },
            structured: true,
            returns: "{oops",
          },
        ],
      },
    });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: {
        kind: "Tool",
        message: expect.stringMatching(/^structured tool "stats_read" returned invalid JSON: /),
      },
    });
    const failed = run.port.events.filter((e) => e.type === "tool_call_failed");
    expect(failed.map((e) => ("message" in e ? e.message : ""))).toEqual([
      'tool call failure: structured tool "stats_read" returned invalid JSON',
    ]);
  });

  it("give structured output as Lua data with integers and nested lists", async () => {
    const run = await only(
      "local r = tools.call('stats/read')\nreturn math.type(r.n) .. '|' .. #r.list .. '|' .. r.list[2][1] .. '|' .. tostring(r.obj.x)",
      {
        host: {
          fixture_tools: [
            {
              id: "stats/read",
              description: "Reads.",
              parameters: { type: "object", properties: {} },
              structured: true,
              returns: '{"n":3,"list":[1,["b"]],"obj":{"x":true}}',
            },
          ],
        },
      },
    );
    expect(result(run)).toBe("integer|2|b|true");
  });

  it("end the run as cancelled when it is cancelled while a call waits", async () => {
    const controller = new AbortController();
    const run = await only("return tools.call('user-input/ask')", {
      operator: [{ hold: true }],
      signal: controller.signal,
      configure: (port) => {
        const answer = port.toolCall.bind(port);
        port.toolCall = (request) => {
          queueMicrotask(() => controller.abort());
          return answer(request);
        };
      },
    });
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.toolRequests[0]?.signal.aborted).toBe(true);
    expect(toolEvents(run).map((e) => e.type)).toEqual(["tool_call_started"]);
  });
});

describe("local tool calls", () => {
  it("report nested calls innermost first, trusted and with no tool", async () => {
    const run = await only(`
      tools.offer_local('inner', 'Inner', { value = 'string' }, function(args) return 'inner ' .. args.value end)
      tools.offer_local('outer', 'Outer', { value = 'string' }, function(args)
        return 'outer ' .. tools.call('inner', { value = args.value })
      end)
      return tools.call('outer', { value = 'hi' })`);
    expect(result(run)).toBe("outer inner hi");
    const call = (alias: string) => ({ turn: 0, tool_call_id: "", alias });
    expect(toolEvents(run)).toEqual([
      { type: "tool_call_started", ...call("outer"), caller: "script", arguments: { value: "hi" } },
      { type: "tool_call_started", ...call("inner"), caller: "script", arguments: { value: "hi" } },
      { type: "tool_call_succeeded", ...call("inner"), caller: "script" },
      { type: "tool_result", ...call("inner"), content: "inner hi", trusted: true },
      { type: "tool_call_succeeded", ...call("outer"), caller: "script" },
      { type: "tool_result", ...call("outer"), content: "outer inner hi", trusted: true },
    ]);
  });

  it("hand the handler a fresh table built from the JSON of the arguments", async () => {
    const run = await only(`
      local mine = { n = 1, sub = { 2 } }
      local seen
      tools.offer_local('grab', 'Grab', {}, function(args) seen = args return math.type(args.n) end)
      local out = tools.call('grab', mine)
      return out .. '|' .. tostring(seen == mine) .. '|' .. tostring(seen.sub == mine.sub) .. '|' .. seen.sub[1]`);
    expect(result(run)).toBe("integer|false|false|2");
  });

  it("turn the first returned value into text by the scalar return rule", async () => {
    const run = await only(`
      tools.offer_local('n', 'N', {}, function() return 2.5 end)
      tools.offer_local('b', 'B', {}, function() return false end)
      tools.offer_local('none', 'None', {}, function() end)
      tools.offer_local('pair', 'Pair', {}, function() return 'first', 'second' end)
      return tools.call('n') .. '|' .. tools.call('b') .. '|[' .. tools.call('none') .. ']|' .. tools.call('pair')`);
    expect(result(run)).toBe("2.5|false|[]|first");
  });

  it("refuse a function return with the scalar rule's message and report the failure", async () => {
    const run = await only(`
      tools.offer_local('f', 'F', {}, function() return print or function() end end)
      local ok, err = pcall(tools.call, 'f')
      return err.kind .. '|' .. tostring(err) .. '|' .. tostring(tools.calls.f)`);
    expect(result(run)).toBe("lua|cannot return a function as a result|1");
    expect(toolEvents(run).map((e) => [e.type, e.message])).toEqual([
      ["tool_call_started", undefined],
      ["tool_call_failed", "cannot return a function as a result"],
    ]);
  });

  it("re-raise a handler's string error unchanged and report its text", async () => {
    const run = await only(`
      tools.offer_local('boom', 'Boom', {}, function() error('handler exploded', 0) end)
      local ok, err = pcall(tools.call, 'boom')
      return type(err) .. '|' .. err`);
    expect(result(run)).toBe("string|handler exploded");
    expect(toolEvents(run).at(-1)).toMatchObject({
      type: "tool_call_failed",
      message: "handler exploded",
    });
  });

  it("refuse jump until the outermost handler ends, nested calls included", async () => {
    const run = await only(`
      local j = jump
      local seen = {}
      tools.offer_local('inner', 'Inner', {}, function() return 'in' end)
      tools.offer_local('outer', 'Outer', {}, function()
        tools.call('inner')
        local ok, err = pcall(j, '## Only')
        seen[#seen + 1] = tostring(err)
        return 'out'
      end)
      tools.call('outer')
      return seen[1]`);
    expect(result(run)).toBe(JUMP_IN_HANDLER_MESSAGE);
  });
});

describe("tools.calls", () => {
  it("lists local aliases among the seeded names once called, and names a non-string key", async () => {
    const run = await only(`
      tools.offer_local('grab', 'Grab', {}, function() return '' end)
      tools.call('grab')
      local ok, err = pcall(function() return tools.calls[1] end)
      return tostring(err)`);
    expect(result(run)).toBe(
      'tools.calls: "1" has no seeded count; seeded names: ["grab"] - check for typos or offer it with tools.offer',
    );
  });

  it("reads live counts and keeps its metatable protected", async () => {
    const run = await only(`
      tools.call('web/fetch', { url = '${PAGE}' })
      local first = tools.calls['web/fetch']
      tools.call('web/fetch', { url = '${PAGE}' })
      return first .. '|' .. tools.calls['web/fetch'] .. '|' .. getmetatable(tools.calls)`);
    expect(result(run)).toBe("1|2|tools.calls is read-only");
  });
});

describe("the tools and packs tables", () => {
  it("are sealed", async () => {
    const run = await only(`
      local a = select(2, pcall(function() tools.call = nil end))
      local b = select(2, pcall(function() packs.extra = 1 end))
      return tostring(a) .. '|' .. tostring(b) .. '|' .. getmetatable(tools) .. '|' .. getmetatable(packs)
        .. '|' .. type(tools.call)`);
    expect(result(run)).toBe(
      "tools is read-only; cannot set 'call'|packs is read-only; cannot set 'extra'|tools is sealed|packs is sealed|function",
    );
  });

  it("show Tool and Pack objects by id, and keep each Pack's tools array fresh", async () => {
    const run = await only(`
      local web = packs.get('web')
      local a, b = web.tools, web.tools
      return tostring(tools.get('web/fetch')) .. '|' .. tostring(web) .. '|' .. tostring(a == b)
        .. '|' .. tostring(a[1] == b[1]) .. '|' .. getmetatable(web) .. '|' .. getmetatable(a[1])
        .. '|' .. tostring(packs.get('subagents').tools[1]) .. '|' .. #packs.get('subagents').tools`);
    expect(result(run)).toBe(
      "tool: web/fetch|pack: web|false|true|Pack objects are frozen|Tool objects are frozen|nil|0",
    );
  });

  it("refuse packs.offer names by their Pack id reason", async () => {
    const run = await only(`
      local out = {}
      for _, name in ipairs({ 'web/', 'Web', '' }) do
        out[#out + 1] = tostring(select(2, pcall(packs.offer, name)))
      end
      return table.concat(out, '\\n')`);
    expect(result(run)).toBe(
      [
        'packs.offer takes a Pack id, a Pack object, or a list of them, got "web/": invalid Pack id: segments must not be empty',
        "packs.offer takes a Pack id, a Pack object, or a list of them, got \"Web\": invalid Pack id: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
        'packs.offer takes a Pack id, a Pack object, or a list of them, got "": invalid Pack id: segments must not be empty',
      ].join("\n"),
    );
  });
});

describe("the run start", () => {
  it("reports each tool the Host dropped", async () => {
    const run = await only("return 1", {
      dropped: [
        { tool: "kit/../x", pack: "kit", reason: "a Pack's tool id escapes its Pack id; dropped" },
      ],
    });
    expect(run.port.types().slice(0, 2)).toEqual(["run_started", "tool_dropped"]);
    expect(toolEvents(run)).toEqual([
      {
        type: "tool_dropped",
        tool: "kit/../x",
        pack: "kit",
        reason: "a Pack's tool id escapes its Pack id; dropped",
      },
    ]);
  });
});
