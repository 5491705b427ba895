// Cases of /work/shared/conformance/tools/10-model-tool-calls.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - mixed-batch runs catalog, local, and task built-in calls in the model's order (tasks)
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "a script call by wire name or bare name is unbound",
    prompt: [
      "---",
      "name: wire-bare",
      "description: Calls tools by wire name and bare name.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Wire bare",
      "",
      "## Only",
      "",
      "```lua",
      "local wire_ok, wire_err = pcall(tools.call, 'web_search', {})",
      "local bare_ok, bare_err = pcall(tools.call, 'search', {})",
      "return wire_err.kind .. ':' .. wire_err.name .. '|' .. bare_err.kind .. ':' .. bare_err.name",
      "```",
    ],
    expect: {
      result: "unbound_tool:web_search|unbound_tool:search",
    },
  },
  {
    name: "search-loop runs the model's web_search call",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "return messages[3].role .. '|' .. tostring(tools.calls['web/search'])",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "latest Lua release",
              },
            },
          ],
        },
        {
          text: "Lua 5.4.7 is the latest release.",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "tool|1",
      model_requests: [
        {
          tools: ["web_search"],
          tool_definitions: [
            {
              name: "web_search",
              description: "Search the web and return a list of results (title, url, description).",
            },
          ],
        },
        {
          tools: ["web_search"],
        },
      ],
    },
  },
  {
    name: "offered ids and Tool objects reach the model as wire names in offer order",
    prompt: [
      "---",
      "name: three-tools",
      "description: Offers three tools by id and by Tool object.",
      "runvil: 0",
      "uses: [web, user-input]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Three tools",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "tools.offer(tools.get('user-input/ask'))",
      "tools.offer('web/fetch')",
      "messages:user('Use what you need.')",
      "models.loop()",
      "return messages[#messages].content",
      "```",
    ],
    models: {
      replies: [
        {
          text: "nothing needed",
        },
      ],
    },
    expect: {
      result: "nothing needed",
      model_requests: [
        {
          tools: ["web_search", "user-input_ask", "web_fetch"],
        },
      ],
    },
  },
  {
    name: "a catalog tool whose schema is not a JSON object is left out",
    prompt: [
      "---",
      "name: scalar-schema",
      "description: Offers a Pack holding a tool with a scalar schema.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Scalar schema",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "local ok, err = pcall(tools.offer, 'stats/bad')",
      "packs.offer('stats')",
      "messages:user('Read the stats.')",
      "models.loop()",
      "return tostring(tools.get('stats/bad')) .. '|' .. tostring(err)",
      "```",
    ],
    host: {
      fixture_tools: [
        {
          id: "stats/read",
          description: "Reads stats.",
          parameters: {
            type: "object",
            properties: {},
          },
          returns: "stats",
        },
        {
          id: "stats/bad",
          description: "Has a scalar schema.",
          parameters: "scalar",
          returns: "bad",
        },
      ],
    },
    models: {
      replies: [
        {
          text: "read",
        },
      ],
    },
    expect: {
      result: 'nil|tools.offer: "stats/bad" is not a catalog tool in this run',
      model_requests: [
        {
          tools: ["stats_read"],
        },
      ],
    },
  },
  {
    name: "two ids with the same wire name offer only one tool",
    prompt: [
      "---",
      "name: same-wire-name",
      "description: Offers a Pack whose two tool ids share a wire name.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Same wire name",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "packs.offer('stats')",
      "messages:user('Read the stats.')",
      "models.loop()",
      "return messages[#messages].content",
      "```",
    ],
    host: {
      fixture_tools: [
        {
          id: "stats/read.v2",
          description: "Reads stats, version 2.",
          parameters: {
            type: "object",
            properties: {},
          },
          returns: "dotted",
        },
        {
          id: "stats/read/v2",
          description: "Reads stats, version 2, nested.",
          parameters: {
            type: "object",
            properties: {},
          },
          returns: "slashed",
        },
      ],
    },
    models: {
      replies: [
        {
          text: "read",
        },
      ],
    },
    expect: {
      result: "read",
      model_requests: [
        {
          tools: ["stats_read_v2"],
        },
      ],
    },
  },
  {
    name: "bound and local tools mix in one round, bound first",
    prompt: [
      "---",
      "name: mixed-round",
      "description: Offers a bound tool and a local tool together.",
      "runvil: 0",
      "uses: [web]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Mixed round",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  return 'grabbed ' .. args.value",
      "end)",
      "tools.offer('web/search')",
      "messages:user('Search for lua and grab x.')",
      "models.loop()",
      "return messages[4].content",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "lua",
              },
            },
            {
              id: "call_2",
              name: "grab",
              arguments: {
                value: "x",
              },
            },
          ],
        },
        {
          text: "done",
        },
      ],
    },
    web: {
      search: {
        lua: "1. The Programming Language Lua",
      },
    },
    expect: {
      result: "grabbed x",
      model_requests: [
        {
          tools: ["web_search", "grab"],
        },
        {
          tools: ["web_search", "grab"],
        },
      ],
    },
  },
  {
    name: "a reply with arguments that are not a JSON object fails the round and runs no call",
    prompt: [
      "---",
      "name: bad-arguments",
      "description: Lets the model send arguments that are not an object.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Bad arguments",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "local calls = {}",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  calls[#calls + 1] = args.value",
      "  return 'grabbed ' .. args.value",
      "end)",
      "messages:user('Grab a.')",
      "local ok, err = pcall(models.loop)",
      "return tostring(ok) .. '|' .. #calls .. '|' .. tostring(err)",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "c1",
              name: "grab",
              arguments: {
                value: "a",
              },
            },
            {
              id: "c2",
              name: "grab",
              arguments: [1, 2, 3],
            },
          ],
        },
      ],
    },
    expect: {
      result_matches: "^false\\|0\\|[\\s\\S]*tool call arguments were not a JSON object",
    },
  },
  {
    name: "a reply whose call ids repeat fails the round and runs no call",
    prompt: [
      "---",
      "name: dup-ids",
      "description: Lets the model reuse one call id.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Dup ids",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "local calls = {}",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  calls[#calls + 1] = args.value",
      "  return 'grabbed ' .. args.value",
      "end)",
      "messages:user('Grab a, then b.')",
      "local ok, err = pcall(models.loop)",
      "return tostring(ok) .. '|' .. #calls",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "dup",
              name: "grab",
              arguments: {
                value: "a",
              },
            },
            {
              id: "dup",
              name: "grab",
              arguments: {
                value: "b",
              },
            },
          ],
        },
      ],
    },
    expect: {
      result: "false|0",
    },
  },
  {
    name: "one tool round leaves four records",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "return #messages .. '|' .. messages[1].role .. ',' .. messages[2].role .. ','",
      "  .. messages[3].role .. ',' .. messages[4].role .. '|' .. messages[3].tool_call_id",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "latest Lua release",
              },
            },
          ],
        },
        {
          text: "Lua 5.4.7 is the latest release.",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "4|user,assistant,tool,assistant|call_1",
    },
  },
  {
    name: "a single call then a final reply reports turn, call, turn events",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "return messages[3].role .. '|' .. tostring(tools.calls['web/search'])",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "latest Lua release",
              },
            },
          ],
        },
        {
          text: "Lua 5.4.7 is the latest release.",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "tool|1",
      events: [
        {
          type: "model_turn_completed",
        },
        {
          type: "tool_call_succeeded",
        },
        {
          type: "model_turn_completed",
        },
      ],
    },
  },
  {
    name: "a structured tool's result reaches the loop as plain text",
    prompt: [
      "---",
      "name: structured-loop",
      "description: Lets the model call a structured tool.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Structured loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('stats/read')",
      "messages:user('Read the stats.')",
      "models.loop()",
      "return type(messages[3].content) .. '|' .. messages[3].content",
      "```",
    ],
    host: {
      fixture_tools: [
        {
          id: "stats/read",
          description: "Reads stats.",
          parameters: {
            type: "object",
            properties: {},
          },
          structured: true,
          returns: '{"text":"typed","images":[]}',
        },
      ],
    },
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "stats_read",
              arguments: {},
            },
          ],
        },
        {
          text: "typed",
        },
      ],
    },
    expect: {
      result: 'string|{"text":"typed","images":[]}',
    },
  },
  {
    name: "a model call to a name the round did not advertise is out of scope",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "local ok, err = pcall(models.loop)",
      "return err.kind .. '|' .. err.name .. '|' .. tostring(err)",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "rogue",
              arguments: {},
            },
          ],
        },
      ],
    },
    expect: {
      result:
        'out_of_scope_tool|rogue|tool "rogue" is not in this section\'s scope; in-scope aliases: ["web_search"]',
      model_requests: [
        {
          tools: ["web_search"],
        },
      ],
      events: [
        {
          type: "assistant_tool_calls",
        },
        {
          type: "tool_call_failed",
        },
      ],
    },
  },
  {
    name: "a four-call batch appends tool records in call order",
    prompt: [
      "---",
      "name: four-searches",
      "description: Lets the model search four times in one reply.",
      "runvil: 0",
      "uses: [web]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Four searches",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for four things.')",
      "models.loop()",
      "local ids = {}",
      "for i = 3, 6 do",
      "  ids[#ids + 1] = messages[i].tool_call_id",
      "end",
      "return table.concat(ids, ',')",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "c1",
              name: "web_search",
              arguments: {
                query: "one",
              },
            },
            {
              id: "c2",
              name: "web_search",
              arguments: {
                query: "two",
              },
            },
            {
              id: "c3",
              name: "web_search",
              arguments: {
                query: "three",
              },
            },
            {
              id: "c4",
              name: "web_search",
              arguments: {
                query: "four",
              },
            },
          ],
        },
        {
          text: "searched",
        },
      ],
    },
    web: {
      search: {
        one: "1. first result",
        two: "1. second result",
        three: "1. third result",
        four: "1. fourth result",
      },
    },
    expect: {
      result: "c1,c2,c3,c4",
    },
  },
  {
    name: "local calls in one round run one at a time and share the closure",
    prompt: [
      "---",
      "name: grab-count",
      "description: Counts local calls through an upvalue.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Grab count",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "local count = 0",
      "local seen = {}",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  count = count + 1",
      "  seen[#seen + 1] = count",
      "  return 'grabbed ' .. args.value",
      "end)",
      "messages:user('Grab a, then b.')",
      "models.loop()",
      "return table.concat(seen, ',') .. '|' .. count",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "grab",
              arguments: {
                value: "a",
              },
            },
            {
              id: "call_2",
              name: "grab",
              arguments: {
                value: "b",
              },
            },
          ],
        },
        {
          text: "done",
        },
      ],
    },
    expect: {
      result: "1,2|2",
    },
  },
  {
    name: "a model call to web_search reports the batch event then a tool_result",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "return messages[3].role .. '|' .. tostring(tools.calls['web/search'])",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "latest Lua release",
              },
            },
          ],
        },
        {
          text: "Lua 5.4.7 is the latest release.",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "tool|1",
      events: [
        {
          type: "assistant_tool_calls",
          turn: 1,
        },
        {
          type: "tool_result",
          turn: 1,
          tool_call_id: "call_1",
          alias: "web_search",
          tool: "web/search",
          trusted: false,
        },
      ],
    },
  },
  {
    name: "a failed bound call still reports an untrusted tool_result",
    prompt: [
      "---",
      "name: failing-loop",
      "description: Lets the model read a tool failure and recover.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Failing loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/fetch')",
      "messages:user('Fetch the Lua home page.')",
      "models.loop()",
      "return messages[3].role .. '|' .. tools.calls['web/fetch'] .. '|' .. messages[#messages].content",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_fetch",
              arguments: {},
            },
          ],
        },
        {
          text: "final answer",
        },
      ],
    },
    expect: {
      result: "tool|1|final answer",
      events: [
        {
          type: "tool_result",
          tool_call_id: "call_1",
          alias: "web_fetch",
          trusted: false,
        },
      ],
    },
  },
  {
    name: "the first round validates the tool scope before its turn completes",
    prompt: [
      "---",
      "name: search-loop",
      "description: Lets the model call a bound tool.",
      "runvil: 0",
      "uses:",
      "  - web",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Search loop",
      "",
      "## Only",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "return messages[3].role .. '|' .. tostring(tools.calls['web/search'])",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "web_search",
              arguments: {
                query: "latest Lua release",
              },
            },
          ],
        },
        {
          text: "Lua 5.4.7 is the latest release.",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "tool|1",
      events: [
        {
          type: "tool_scope_validation_started",
        },
        {
          type: "tool_scope_validation_succeeded",
        },
        {
          type: "model_turn_completed",
        },
        {
          type: "model_turn_completed",
        },
      ],
    },
  },
];

describe("10-model-tool-calls", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
