// Cases of /work/shared/conformance/tools/11-tool-errors.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - failing-loop lets the model read the failure and finish (a model)
// - the failure text becomes the wrapped tool record (a model)
// - a failed operator ask is a tool error holding the model-safe message (a prelude)
// - an uncaught failed ask ends the run as Tool (a prelude)
// - an out-of-scope error reads kind, name, and message (a model)
// - scope-check catches a model call to rogue (a model)
// - a call to an unoffered catalog tool's wire name gets the not-offered hint (a model)
// - a call by tool id gets no hint (a model)
// - a call to a name matching no tool gets no hint (a model)
// - an uncaught out-of-scope call fails the run as Tool (a model)
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "catch-tool catches a failing fetch as a tool error",
    prompt: [
      "---",
      "name: catch-tool",
      "description: Catches a failing tool call in Lua.",
      "runvil: 0",
      "uses:",
      "  - web",
      "---",
      "",
      "# Catch tool",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.call, 'web/fetch', {})",
      "if not ok and err.kind == 'tool' then",
      "  return 'could not run the tool: ' .. tostring(err)",
      "end",
      "return 'ok'",
      "```",
    ],
    expect: {
      result: "could not run the tool: tool call failure: web_fetch: missing url argument",
    },
  },
  {
    name: "a script call's tool failure has kind tool and the tool call failure message",
    prompt: [
      "---",
      "name: catch-tool",
      "description: Catches a failing tool call in Lua.",
      "runvil: 0",
      "uses:",
      "  - web",
      "---",
      "",
      "# Catch tool",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.call, 'web/fetch', {})",
      "return tostring(ok) .. '|' .. err.kind .. '|' .. tostring(err)",
      "```",
    ],
    expect: {
      result: "false|tool|tool call failure: web_fetch: missing url argument",
    },
  },
  {
    name: "an uncaught tool failure ends the run as Tool",
    prompt: [
      "---",
      "name: fetch-uncaught",
      "description: Lets a failing fetch end the run.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Fetch uncaught",
      "",
      "## Only",
      "",
      "```lua",
      "return tools.call('web/fetch', {})",
      "```",
    ],
    expect: {
      outcome: "failed",
      error: {
        kind: "Tool",
        message: "tool call failure: web_fetch: missing url argument",
      },
    },
  },
  {
    name: "a call to a missing tool is unbound_tool naming it",
    prompt: [
      "---",
      "name: call-missing",
      "description: Calls a name that is not a tool.",
      "runvil: 0",
      "---",
      "",
      "# Call missing",
      "",
      "## Only",
      "",
      "```lua",
      "local ok, err = pcall(tools.call, 'missing', {})",
      "return tostring(ok) .. '|' .. err.kind .. ':' .. err.name",
      "```",
    ],
    expect: {
      result: "false|unbound_tool:missing",
    },
  },
  {
    name: "an uncaught unbound call lists the catalog tools alphabetically",
    prompt: [
      "---",
      "name: call-missing-uncaught",
      "description: Calls a name that is not a tool without pcall.",
      "runvil: 0",
      "---",
      "",
      "# Call missing uncaught",
      "",
      "## Only",
      "",
      "```lua",
      "tools.call('missing', {})",
      "return 'unreachable'",
      "```",
    ],
    expect: {
      outcome: "failed",
      error: {
        kind: "Tool",
        message:
          'tool "missing" is not a tool in this run; catalog tools: ["user-input/ask", "web/fetch", "web/search"]',
      },
    },
  },
];

describe("11-tool-errors", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
