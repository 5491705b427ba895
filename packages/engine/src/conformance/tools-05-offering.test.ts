// Cases of /work/shared/conformance/tools/05-offering.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - offer-search advertises web_search and routes its calls to web/search (a model)
// - offer-search runs normally when the model never calls the tool (a model)
// - packs.offer advertises both web tools (a model)
// - packs.offer of user-input offers the ask tool (a model)
// - packs.offer of packs.required offers every declared Pack (a model)
// - an array of a Tool object and an id offers in array order (a model)
// - tools.offer of tools.extras offers every extra Pack's tool (a model)
// - tools.offer with no argument or an empty array offers nothing (a model)
// - tools.offer tools come before packs.offer tools and repeats add nothing (a model)
// - offered tools reach the model in offer order, not catalog order (a model)
// - two-loops gives each section its own tool set (a model)
// - tools.offer after an empty render raises the fixed-list error (a model)
// - tools.offer after the render refuses before checking its arguments (a model)
// - an identical packs.offer after the render raises the fixed-list error (a model)
// - a handler running inside models.loop cannot offer (a model)
// - a round over empty messages renders nothing, so offers still work after it (a model)
// - offers in the H1 block do not reach the walked sections (a model)
// - shared-offers adds a required library's offers to each entry's own scope (a model)
// - a refused array offer records nothing and a later valid offer still lands (a model)
// - an uncaught tools.offer refusal fails the run as Lua (a model)
// - a tools.offer refused for an extra argument records nothing (a model)
// - an absent Pack in a list refuses the whole call and keeps earlier offers (a model)
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "tools.offer refuses a local alias and offers nothing from the array",
    prompt: [
      "---",
      "name: offer-search",
      "description: Offers one web tool to the model.",
      "runvil: 0",
      "uses: [web]",
      "models:",
      "  writer: {}",
      "---",
      "",
      "# Offer search",
      "",
      "## Ask",
      "",
      "```lua",
      "tools.offer_local('pick', 'Pick an option', {}, function() return 'picked' end)",
      "local ok, err = pcall(tools.offer, { 'web/search', 'pick' })",
      "return err.kind .. '|' .. tostring(err)",
      "```",
    ],
    expect: {
      result: 'lua|tools.offer: "pick" is not a catalog tool in this run',
    },
  },
  {
    name: "tools.offer refuses a web id the web Pack does not contribute",
    prompt: [
      "---",
      "name: offer-unknown-id",
      "description: Offers an id the web Pack does not contribute.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer unknown id",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'web/crawl')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: 'tools.offer: "web/crawl" is not a catalog tool in this run',
    },
  },
  {
    name: "tools.offer refuses a wire name",
    prompt: [
      "---",
      "name: offer-wire-name",
      "description: Offers a tool by its wire name.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer wire name",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'web_fetch')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: 'tools.offer: "web_fetch" is not a catalog tool in this run',
    },
  },
  {
    name: "tools.offer refuses a bare tool name",
    prompt: [
      "---",
      "name: offer-bare-name",
      "description: Offers a tool by its bare name.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer bare name",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'fetch')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: 'tools.offer: "fetch" is not a catalog tool in this run',
    },
  },
  {
    name: "tools.offer refuses any id when the catalog is empty",
    prompt: [
      "---",
      "name: offer-empty-catalog",
      "description: Offers a tool on a Host with no tools.",
      "runvil: 0",
      "---",
      "",
      "# Offer empty catalog",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'web/fetch')",
      "return tostring(err)",
      "```",
    ],
    host: {
      packs: [],
    },
    expect: {
      result: 'tools.offer: "web/fetch" is not a catalog tool in this run',
    },
  },
  {
    name: "tools.offer with a second argument names the extra argument's type",
    prompt: [
      "---",
      "name: offer-extra-arg",
      "description: Passes two ids as two arguments.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer extra arg",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 'web/search', 'web/fetch')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "tools.offer takes one tool or a list of them, got extra string",
    },
  },
  {
    name: "tools.offer with a number names integer",
    prompt: [
      "---",
      "name: offer-number",
      "description: Passes a number to tools.offer.",
      "runvil: 0",
      "---",
      "",
      "# Offer number",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, 42)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "tools.offer takes tool ids, tool objects, or arrays of them, got integer",
    },
  },
  {
    name: "tools.offer with a nested array names table",
    prompt: [
      "---",
      "name: offer-nested",
      "description: Passes a nested array to tools.offer.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer nested",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, { { 'web/search' } })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "tools.offer takes tool ids, tool objects, or arrays of them, got table",
    },
  },
  {
    name: "tools.offer with a Pack object names userdata",
    prompt: [
      "---",
      "name: offer-pack-object",
      "description: Passes a Pack object to tools.offer.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Offer pack object",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(tools.offer, packs.get('web'))",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "tools.offer takes tool ids, tool objects, or arrays of them, got userdata",
    },
  },
  {
    name: "packs.offer with a second argument names the extra argument's type",
    prompt: [
      "---",
      "name: pack-extra-arg",
      "description: Passes two Pack ids as two arguments.",
      "runvil: 0",
      "uses: [web, user-input]",
      "---",
      "",
      "# Pack extra arg",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, 'web', 'user-input')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes one Pack or a list of them, got extra string",
    },
  },
  {
    name: "packs.offer with no argument names nil",
    prompt: [
      "---",
      "name: pack-no-arg",
      "description: Calls packs.offer with no argument.",
      "runvil: 0",
      "---",
      "",
      "# Pack no arg",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok1, e1 = pcall(packs.offer)",
      "local ok2, e2 = pcall(packs.offer, nil)",
      "return tostring(e1) .. '|' .. tostring(e2)",
      "```",
    ],
    expect: {
      result:
        "packs.offer takes a Pack id, a Pack object, or a list of them, got nil|packs.offer takes a Pack id, a Pack object, or a list of them, got nil",
    },
  },
  {
    name: "packs.offer with a number names integer",
    prompt: [
      "---",
      "name: pack-number",
      "description: Passes a number to packs.offer.",
      "runvil: 0",
      "---",
      "",
      "# Pack number",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, 42)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes a Pack id, a Pack object, or a list of them, got integer",
    },
  },
  {
    name: "packs.offer with a boolean names boolean",
    prompt: [
      "---",
      "name: pack-boolean",
      "description: Passes a boolean to packs.offer.",
      "runvil: 0",
      "---",
      "",
      "# Pack boolean",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, true)",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes a Pack id, a Pack object, or a list of them, got boolean",
    },
  },
  {
    name: "packs.offer with a number in the list names integer",
    prompt: [
      "---",
      "name: pack-list-number",
      "description: Passes a number inside the Pack list.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Pack list number",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, { 'web', 42 })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes a Pack id, a Pack object, or a list of them, got integer",
    },
  },
  {
    name: "packs.offer with a nested list names table",
    prompt: [
      "---",
      "name: pack-nested",
      "description: Passes a nested list to packs.offer.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Pack nested",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, { { 'web' } })",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes a Pack id, a Pack object, or a list of them, got table",
    },
  },
  {
    name: "packs.offer with a Tool object names userdata",
    prompt: [
      "---",
      "name: pack-tool-object",
      "description: Passes a Tool object to packs.offer.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Pack tool object",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, tools.get('web/fetch'))",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result: "packs.offer takes a Pack id, a Pack object, or a list of them, got userdata",
    },
  },
  {
    name: "packs.offer with a tool id quotes it and adds the Pack id parse error",
    prompt: [
      "---",
      "name: pack-tool-id",
      "description: Passes a tool id to packs.offer.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Pack tool id",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, 'web/fetch')",
      "return tostring(err)",
      "```",
    ],
    expect: {
      result:
        "packs.offer takes a Pack id, a Pack object, or a list of them, got \"web/fetch\": invalid Pack id: a Pack id is one segment, such as `web`, with no '/'",
    },
  },
  {
    name: "packs.offer of a Pack the run does not know",
    prompt: [
      "---",
      "name: pack-unknown",
      "description: Offers a Pack the Host does not have.",
      "runvil: 0",
      "---",
      "",
      "# Pack unknown",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, 'user-input')",
      "return tostring(err)",
      "```",
    ],
    host: {
      packs: ["web", "subagents"],
    },
    expect: {
      result:
        'packs.offer: no Pack named "user-input" in this run; declare it under uses: to require it, or offer it only when packs.get("user-input") returns it',
    },
  },
  {
    name: "packs.offer of a Pack the Host reports as unable to serve",
    prompt: [
      "---",
      "name: pack-unavailable",
      "description: Offers an undeclared Pack that cannot serve the run.",
      "runvil: 0",
      "---",
      "",
      "# Pack unavailable",
      "",
      "## Ask",
      "",
      "```lua",
      "local ok, err = pcall(packs.offer, 'web')",
      "return tostring(err)",
      "```",
    ],
    host: {
      services: ["input-broker"],
      unavailable: {
        web: "web needs runvil/search-provider, and this host provides none",
      },
    },
    expect: {
      result:
        "packs.offer: the web Pack is unavailable in this run: web needs runvil/search-provider, and this host provides none",
    },
  },
];

describe("05-offering", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});
