// Cases of /work/shared/conformance/tools/08-local-tools.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - local-grab advertises grab and answers the model's call (a model)
// - a parameter with a description carries it into the schema (a model)
// - every parameter is required and listed in sorted bytewise order (a model)
// - a local tool with no parameters has an empty schema (a model)
// - decide records the model's verdict in the H1 pass (a model)
// - a local tool named like an offered wire name shadows the catalog tool (a model)
// - tools.offer_local after the render raises before checking arguments (a model)
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
];

describe("08-local-tools", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
