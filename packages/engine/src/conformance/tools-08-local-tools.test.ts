// Cases of /work/shared/conformance/tools/08-local-tools.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "local-call calls a local tool from Lua and counts it",
    prompt: [
      "---",
      "name: local-call",
      "description: Calls a local tool from Lua and counts the call.",
      "runvil: 0",
      "---",
      "",
      "# Local call",
      "",
      "## Call",
      "",
      "```lua",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  return 'got ' .. args.value",
      "end)",
      "return tools.call('grab', { value = 'hi' }) .. '|' .. tostring(tools.calls.grab)",
      "```",
    ],
    expect: {
      result: "got hi|1",
    },
  },
  {
    name: "an alias holding a slash is refused by the alias grammar",
    prompt: [
      "---",
      "name: alias-slash",
      "description: Defines a local tool under a tool id.",
      "runvil: 0",
      "---",
      "",
      "# Alias slash",
      "",
      "## Call",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer_local, 'web/fetch', 'Fetch', {}, function() return '' end)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        '^(?:[^\\n]*: )?invalid alias "web/fetch": expected \\[A-Za-z\\]\\[A-Za-z0-9_-\\]\\{0,63\\}$',
    },
  },
  {
    name: "a second local tool under the same alias is refused",
    prompt: [
      "---",
      "name: alias-repeat",
      "description: Defines grab twice in one section.",
      "runvil: 0",
      "---",
      "",
      "# Alias repeat",
      "",
      "## Call",
      "",
      "```lua",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args) return args.value end)",
      "local ok, err = pcall(tools.offer_local, 'grab', 'Grab again', {}, function() return '' end)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: 'tools.offer_local alias "grab" is already registered',
    },
  },
  {
    name: "a parameter type outside the four is unsupported",
    prompt: [
      "---",
      "name: param-type",
      "description: Types a parameter with a capitalized type name.",
      "runvil: 0",
      "---",
      "",
      "# Param type",
      "",
      "## Call",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer_local, 'grab', 'Grab a value', { value = 'String' }, function() return '' end)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result:
        'tools.offer_local param "value" has unsupported type "String": expected "string", "integer", "number", or "boolean"',
    },
  },
  {
    name: "a parameter spec that is a bare number is refused",
    prompt: [
      "---",
      "name: param-number",
      "description: Gives a parameter a number as its spec.",
      "runvil: 0",
      "---",
      "",
      "# Param number",
      "",
      "## Call",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer_local, 'grab', 'Grab a value', { value = 5 }, function() return '' end)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result:
        'tools.offer_local param "value" must be a type string or a {type, description} array',
    },
  },
  {
    name: "local-grab advertises grab and answers the model's call",
    prompt: [
      "---",
      "name: local-grab",
      "description: Offers a Lua tool to the model.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Local grab",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)",
      "  return 'got ' .. args.value",
      "end)",
      "messages:user('Use the grab tool on the value b, then repeat what it said.')",
      "models.loop()",
      "return messages[#messages].content",
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
                value: "b",
              },
            },
          ],
        },
        {
          text: "got b",
        },
      ],
    },
    expect: {
      result: "got b",
      model_requests: [
        {
          tools: ["grab"],
          tool_definitions: [
            {
              name: "grab",
              description: "Grab a value",
              parameters: {
                type: "object",
                properties: {
                  value: {
                    type: "string",
                  },
                },
                required: ["value"],
              },
            },
          ],
        },
        {
          tools: ["grab"],
        },
      ],
    },
  },
  {
    name: "a parameter with a description carries it into the schema",
    prompt: [
      "---",
      "name: local-find",
      "description: Offers a local tool with a described parameter.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Local find",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer_local('find', 'Find notes', { query = 'string', limit = { 'integer', 'maximum hits' } }, function(args)",
      "  return 'found ' .. args.query",
      "end)",
      "messages:user('Find notes about Lua.')",
      "models.loop()",
      "return messages[#messages].content",
      "```",
    ],
    models: {
      replies: [
        {
          text: "no search needed",
        },
      ],
    },
    expect: {
      result: "no search needed",
      model_requests: [
        {
          tools: ["find"],
          tool_definitions: [
            {
              name: "find",
              description: "Find notes",
              parameters: {
                type: "object",
                properties: {
                  limit: {
                    type: "integer",
                    description: "maximum hits",
                  },
                  query: {
                    type: "string",
                  },
                },
                required: ["limit", "query"],
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: "every parameter is required and listed in sorted bytewise order",
    prompt: [
      "---",
      "name: local-sorted",
      "description: Offers a local tool with eight parameters.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Local sorted",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer_local('spell', 'Spell a word', {",
      "  zulu = 'string', alpha = 'string', mike = 'string', bravo = 'string',",
      "  yankee = 'string', charlie = 'string', oscar = 'string', delta = 'string',",
      "}, function() return 'spelled' end)",
      "messages:user('Spell something.')",
      "models.loop()",
      "return messages[#messages].content",
      "```",
    ],
    models: {
      replies: [
        {
          text: "no",
        },
      ],
    },
    expect: {
      result: "no",
      model_requests: [
        {
          tools: ["spell"],
          tool_definitions: [
            {
              name: "spell",
              parameters: {
                type: "object",
                properties: {
                  alpha: {
                    type: "string",
                  },
                  bravo: {
                    type: "string",
                  },
                  charlie: {
                    type: "string",
                  },
                  delta: {
                    type: "string",
                  },
                  mike: {
                    type: "string",
                  },
                  oscar: {
                    type: "string",
                  },
                  yankee: {
                    type: "string",
                  },
                  zulu: {
                    type: "string",
                  },
                },
                required: ["alpha", "bravo", "charlie", "delta", "mike", "oscar", "yankee", "zulu"],
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: "a local tool with no parameters has an empty schema",
    prompt: [
      "---",
      "name: local-none",
      "description: Offers a local tool with no parameters.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Local none",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer_local('none', 'Returns nothing', {}, function() end)",
      "messages:user('Call none if you like.')",
      "models.loop()",
      "return messages[#messages].content",
      "```",
    ],
    models: {
      replies: [
        {
          text: "skipped",
        },
      ],
    },
    expect: {
      result: "skipped",
      model_requests: [
        {
          tools: ["none"],
          tool_definitions: [
            {
              name: "none",
              description: "Returns nothing",
              parameters: {
                type: "object",
                properties: {},
                required: [],
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: "decide records the model's verdict in the H1 pass",
    prompt: [
      "---",
      "name: decide",
      "description: Lets the model choose a path before the walk starts.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Decide",
      "",
      "```lua",
      "models.default('writer')",
      "tools.offer_local('decide', 'Record the verdict', { choice = 'string' }, function(args)",
      "  var.verdict = args.choice",
      "  return 'recorded'",
      "end)",
      "messages:user('Choose use_mcp or use_web and record your choice with the decide tool.')",
      "models.loop()",
      "```",
      "",
      "## Result",
      "",
      "```lua",
      "return var.verdict",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "decide",
              arguments: {
                choice: "use_mcp",
              },
            },
          ],
        },
        {
          text: "Recorded use_mcp.",
        },
      ],
    },
    expect: {
      result: "use_mcp",
      var: {
        verdict: "use_mcp",
      },
    },
  },
  {
    name: "a local tool named like an offered wire name shadows the catalog tool",
    prompt: [
      "---",
      "name: shadow-search",
      "description: Shadows web_search with a local tool.",
      "runvil: 0",
      "uses: [web]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Shadow search",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "tools.offer_local('web_search', 'Local search', { query = 'string' }, function(args)",
      "  return 'local ' .. args.query",
      "end)",
      "messages:user('Search for lua.')",
      "models.loop()",
      "return messages[3].content",
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
          ],
        },
        {
          text: "done",
        },
      ],
    },
    expect: {
      result: "local lua",
      model_requests: [
        {
          tools: ["web_search"],
          tool_definitions: [
            {
              name: "web_search",
              description: "Local search",
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
    name: "tools.offer_local after the render raises before checking arguments",
    prompt: [
      "---",
      "name: local-after-render",
      "description: Defines a local tool after the first loop round.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Local after render",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "messages:user('say hi')",
      "models.loop()",
      "local ok, err = pcall(tools.offer_local)",
      "return err.kind .. '|' .. tostring(err)",
      "```",
    ],
    models: {
      replies: [
        {
          text: "hi",
        },
      ],
    },
    expect: {
      result:
        "lua|tools.offer_local: the section's tool list is fixed at its first models.loop round; make every offer before the first loop, or offer in another section",
    },
  },
];

describe("08-local-tools", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
