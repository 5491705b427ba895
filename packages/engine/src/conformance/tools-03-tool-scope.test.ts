// Cases of /work/shared/conformance/tools/03-tool-scope.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - task-owner advertises the four task built-ins in order (tasks)
// - a later allow_tasks narrows the allowlist and a target outside it is refused (tasks)
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "tools.call to a reserved task built-in name is unbound",
    prompt: [
      "---",
      "name: reserved-call",
      "description: Calls a task built-in name from Lua.",
      "runvil: 0",
      "---",
      "",
      "# Reserved call",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.call, 'task_status', {})",
      "return err.kind .. ':' .. err.name",
      "```",
    ],
    expect: {
      result: "unbound_tool:task_status",
    },
  },
  {
    name: "a local tool under a reserved name defines but its call is unbound",
    prompt: [
      "---",
      "name: reserved-local",
      "description: Defines a local tool under a task built-in name.",
      "runvil: 0",
      "---",
      "",
      "# Reserved local",
      "",
      "## Only",
      "",
      "```lua",
      "local defined = pcall(tools.offer_local, 'task', 'Not a task', {}, function() return 'mine' end)",
      "local ok, err = pcall(tools.call, 'task', {})",
      "return tostring(defined) .. '|' .. err.kind .. ':' .. err.name",
      "```",
    ],
    expect: {
      result: "true|unbound_tool:task",
    },
  },
  {
    name: "a catalog tool whose wire name is a task built-in is left out but callable by id",
    prompt: [
      "---",
      "name: reserved-catalog",
      "description: Reaches a catalog tool whose wire name is reserved.",
      "runvil: 0",
      "---",
      "",
      "# Reserved catalog",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'task/status')",
      "return tostring(tools.get('task/status')) .. '|' .. tostring(err) .. '|' .. tools.call('task/status')",
      "```",
    ],
    host: {
      fixture_tools: [
        {
          id: "task/status",
          description: "Reports a status.",
          parameters: {
            type: "object",
            properties: {},
          },
          returns: "fixture status",
        },
      ],
    },
    expect: {
      result: 'nil|tools.offer: "task/status" is not a catalog tool in this run|fixture status',
    },
  },
  {
    name: "allow_tasks with a single heading string is refused",
    prompt: [
      "---",
      "name: allow-string",
      "description: Passes one heading string to tools.allow_tasks.",
      "runvil: 0",
      "---",
      "",
      "# Allow string",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.allow_tasks, '## Research')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        "^(?:[^\\n]*: )?tools\\.allow_tasks targets must be a list of section headings, got string$",
    },
  },
  {
    name: "allow_tasks with a non-string entry is refused",
    prompt: [
      "---",
      "name: allow-integer",
      "description: Passes a whole number in the target list.",
      "runvil: 0",
      "---",
      "",
      "# Allow integer",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.allow_tasks, { 42 })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        "^(?:[^\\n]*: )?tools\\.allow_tasks targets must be section heading strings, got integer$",
    },
  },
  {
    name: "allow_tasks with a whitespace-only entry is refused",
    prompt: [
      "---",
      "name: allow-blank",
      "description: Passes a blank heading in the target list.",
      "runvil: 0",
      "---",
      "",
      "# Allow blank",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.allow_tasks, { '   ' })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        "^(?:[^\\n]*: )?tools\\.allow_tasks targets must be non-empty section headings$",
    },
  },
  {
    name: "allow_tasks with an empty list is refused",
    prompt: [
      "---",
      "name: allow-empty",
      "description: Passes an empty target list.",
      "runvil: 0",
      "---",
      "",
      "# Allow empty",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.allow_tasks, {})",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        "^(?:[^\\n]*: )?tools\\.allow_tasks targets must name at least one section; call it with no argument to allow any section$",
    },
  },
  {
    name: "allow_tasks with only string-keyed entries is refused",
    prompt: [
      "---",
      "name: allow-keyed",
      "description: Passes a table with only string keys.",
      "runvil: 0",
      "---",
      "",
      "# Allow keyed",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.allow_tasks, { first = '## Research' })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result_matches:
        "^(?:[^\\n]*: )?tools\\.allow_tasks targets must name at least one section; call it with no argument to allow any section$",
    },
  },
  {
    name: "scoped-search offers web_search in Ask and nothing in Plain",
    prompt: [
      "---",
      "name: scoped-search",
      "description: Offers one tool to the model in one section only.",
      "runvil: 0",
      "uses: [web]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Scoped search",
      "",
      "## Ask",
      "",
      "```lua",
      "models.use('writer')",
      "tools.offer('web/search')",
      "messages:user('Search for the latest Lua release.')",
      "models.loop()",
      "```",
      "",
      "## Plain",
      "",
      "```lua",
      "models.use('writer')",
      "messages:user('say hi')",
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
        {
          text: "hi",
        },
      ],
    },
    web: {
      search: {
        "latest Lua release": "1. Lua 5.4.7 released",
      },
    },
    expect: {
      result: "hi",
      model_requests: [
        {
          tools: ["web_search"],
        },
        {
          tools: ["web_search"],
        },
        {
          tools: [],
        },
      ],
    },
  },
  {
    name: "a task call in a section that never opted in is out of scope",
    prompt: [
      "---",
      "name: task-owner",
      "description: Lets the model start a task on one section.",
      "runvil: 0",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Task owner",
      "",
      "## Plan",
      "",
      "```lua",
      "models.use('writer')",
      "messages:user('go')",
      "local ok, err = pcall(models.loop)",
      "return err.kind .. '|' .. err.name .. '|' .. #messages",
      "```",
      "",
      "## Child",
      "",
      "```lua",
      "return 'child done'",
      "```",
    ],
    models: {
      replies: [
        {
          tool_calls: [
            {
              id: "call_1",
              name: "task",
              arguments: {
                target: "## Child",
              },
            },
          ],
        },
      ],
    },
    expect: {
      result: "out_of_scope_tool|task|1",
      model_requests: [
        {
          tools: [],
        },
      ],
    },
  },
];

describe("03-tool-scope", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
