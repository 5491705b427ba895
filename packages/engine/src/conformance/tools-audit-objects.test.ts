// Audit of tools.txt "Tool objects and Pack objects" through "Calling tools from Lua": one small
// check per testable sentence that the scenario files do not already cover. Each case runs one
// block on the scenario Host (runvil web, user-input, subagents) and compares the result exactly.
import { describe, expect, it } from "vitest";
import type { ScenarioHost } from "../tools/test-support/scenario-host";
import { runToolCase } from "../tools/test-support/tool-case";

/** Runs `lua` as the one block of a section of a prompt with `uses`, and returns its result. */
async function resultOf(lua: string, uses = "[web]", host?: ScenarioHost): Promise<string> {
  const prompt = [
    "---",
    "name: audit",
    "description: Audits one statement.",
    "runvil: 0",
    ...(uses === "" ? [] : [`uses: ${uses}`]),
    "---",
    "",
    "# Audit",
    "",
    "## Check",
    "",
    "```lua",
    ...lua.split("\n"),
    "```",
  ];
  const { result } = await runToolCase({
    name: "audit",
    prompt,
    ...(host === undefined ? {} : { host }),
    web: { pages: { "https://www.lua.org/": "The Lua home page" } },
    expect: {},
  });
  if (result.outcome !== "succeeded") throw new Error(JSON.stringify(result));
  return result.result ?? "";
}

/** Lua that returns tostring of the error `call` raises (or "no error"). */
function errorOf(call: string): string {
  return `local ok, err = pcall(function() ${call} end)\nif ok then return 'no error' end\nreturn err.kind .. '|' .. tostring(err)`;
}

describe("Tool objects", () => {
  it("tools.get('web/search').pack.name is web and id reads web/search", async () => {
    expect(
      await resultOf("local t = tools.get('web/search')\nreturn t.id .. '|' .. t.pack.name"),
    ).toBe("web/search|web");
  });
  it("tools.get reads nil for an unknown id, a wire name, a wrong case, and a local alias", async () => {
    const lua = [
      "tools.offer_local('helper', 'a local helper', {}, function() return '' end)",
      "local out = {}",
      "for _, id in ipairs({ 'nope/x', 'web_search', 'WEB/search', 'web/search ', 'search', 'web/', 'helper', 'web/fetch/x' }) do",
      "  out[#out + 1] = tostring(tools.get(id))",
      "end",
      "return table.concat(out, ',')",
    ].join("\n");
    expect(await resultOf(lua)).toBe("nil,nil,nil,nil,nil,nil,nil,nil");
  });
  it("tools.get with a non-string names the type", async () => {
    expect(await resultOf(errorOf("tools.get(42)"))).toContain(
      "tools.get takes a tool id, got integer",
    );
    expect(await resultOf(errorOf("tools.get()"))).toContain("tools.get takes a tool id, got nil");
    expect(await resultOf(errorOf("tools.get(1.5)"))).toContain(
      "tools.get takes a tool id, got number",
    );
    expect(await resultOf(errorOf("tools.get(tools.get('web/fetch'))"))).toContain(
      "tools.get takes a tool id, got userdata",
    );
  });
  it("a Tool object is userdata, frozen for known and new fields", async () => {
    expect(await resultOf("return type(tools.get('web/fetch'))")).toBe("userdata");
    expect(await resultOf(errorOf("tools.get('web/fetch').description = 'x'"))).toBe(
      'lua|Tool objects are frozen: cannot assign field "description"',
    );
    expect(await resultOf(errorOf("tools.get('web/fetch').mine = 1"))).toBe(
      'lua|Tool objects are frozen: cannot assign field "mine"',
    );
    expect(
      await resultOf(
        "local t = tools.get('web/fetch')\npcall(function() t.id = 'x' end)\nreturn t.id .. '|' .. tostring(t.mine)",
      ),
    ).toBe("web/fetch|nil");
  });
  it("Tool objects are shared across required, extras, get, and Pack tools, and work as keys", async () => {
    const lua = [
      "local k = {}",
      "k[tools.required()[1]] = 'found'",
      "local e = tools.extras()",
      "return tostring(tools.required()[1] == tools.get('web/fetch')) .. '|' .. k[tools.get('web/fetch')]",
      "  .. '|' .. tostring(packs.get('web').tools[2] == tools.get('web/search'))",
      "  .. '|' .. tostring(e[1] == tools.get('user-input/ask'))",
    ].join("\n");
    expect(await resultOf(lua)).toBe("true|found|true|true");
  });
  it("the members of tools are functions", async () => {
    const lua = [
      "local out = {}",
      "for _, n in ipairs({ 'offer', 'offer_local', 'required', 'extras', 'get', 'allow_tasks', 'call' }) do",
      "  out[#out + 1] = type(tools[n])",
      "end",
      "return table.concat(out, ',') .. '|' .. type(tools)",
    ].join("\n");
    expect(await resultOf(lua)).toBe(
      "function,function,function,function,function,function,function|table",
    );
  });
  it("no tool is a global, even after an offer and a call; a global of that name sits beside it", async () => {
    const lua = [
      "tools.offer('web/search')",
      "tools.call('web/fetch', { url = 'https://www.lua.org/' })",
      "assert(web_fetch == nil and web_search == nil and fetch == nil and user_input_ask == nil and tool_call == nil)",
      "web_fetch = 'mine'",
      "return web_fetch .. '|' .. tools.get('web/fetch').id",
    ].join("\n");
    expect(await resultOf(lua, "[web, user-input]")).toBe("mine|web/fetch");
  });
  it("required and extras split the offering; extras with uses [user-input]", async () => {
    const lua = [
      "local ids = {}",
      "for _, tool in ipairs(tools.extras()) do ids[#ids + 1] = tool.id end",
      "local required = tools.required()",
      "return #required .. ':' .. required[1].id .. '|' .. table.concat(ids, ',')",
    ].join("\n");
    expect(await resultOf(lua, "[user-input]")).toBe("1:user-input/ask|web/fetch,web/search");
  });
  it("an empty side is an empty array, and each call builds a new array", async () => {
    const lua = [
      "local r = tools.required()",
      "local a = tools.extras()",
      "a[1] = nil",
      "return type(r) .. #r .. '|' .. tostring(tools.extras() == tools.extras()) .. '|' .. #tools.extras()",
    ].join("\n");
    expect(await resultOf(lua, "")).toBe("table0|false|3");
  });
});

describe("Pack objects", () => {
  it("a Pack object has name and tools; each tools read is a new array of shared objects", async () => {
    const lua = [
      "local web = packs.get('web')",
      "local a, b = web.tools, web.tools",
      "return type(web) .. '|' .. web.name .. '|' .. #a .. '|' .. tostring(a == b) .. '|' .. tostring(a[1] == b[1])",
    ].join("\n");
    expect(await resultOf(lua)).toBe("userdata|web|2|false|true");
  });
  it("Pack objects are frozen and keep their value", async () => {
    expect(await resultOf(errorOf("packs.get('web').name = 'x'"))).toBe(
      'lua|Pack objects are frozen: cannot assign field "name"',
    );
    expect(await resultOf(errorOf("packs.get('web').other = 'x'"))).toBe(
      'lua|Pack objects are frozen: cannot assign field "other"',
    );
    expect(
      await resultOf(
        "local w = packs.get('web')\npcall(function() w.name = 'x' end)\nreturn w.name",
      ),
    ).toBe("web");
  });
  it("packs.get reads nil for unknown names, tool ids, fully qualified names", async () => {
    const lua = [
      "local out = {}",
      "for _, id in ipairs({ 'nope', 'web/fetch', 'runvil/web', 'WEB', '' }) do out[#out + 1] = tostring(packs.get(id)) end",
      "return table.concat(out, ',') .. '|' .. packs.get('web').name .. '|' .. packs.get('user-input').name",
    ].join("\n");
    expect(await resultOf(lua)).toBe("nil,nil,nil,nil,nil|web|user-input");
  });
  it("packs.get with a non-string names the type", async () => {
    expect(await resultOf(errorOf("packs.get(42)"))).toBe(
      "lua|packs.get takes a Pack id, got integer",
    );
    expect(await resultOf(errorOf("packs.get({})"))).toBe(
      "lua|packs.get takes a Pack id, got table",
    );
    expect(await resultOf(errorOf("packs.get()"))).toBe("lua|packs.get takes a Pack id, got nil");
  });
  it("packs lists are sorted by Pack id and hold the shared objects", async () => {
    const lua = [
      "local r, e = packs.required(), packs.extras()",
      "return r[1].name .. ',' .. r[2].name .. '|' .. e[1].name .. '|' .. #e",
      "  .. '|' .. tostring(r[2] == packs.get('web')) .. '|' .. tostring(packs.required() == packs.required())",
      "  .. '|' .. tostring(tools.get('web/search').pack == packs.get('web'))",
    ].join("\n");
    expect(await resultOf(lua, "[web, user-input]")).toBe(
      "user-input,web|subagents|1|true|false|true",
    );
    expect(
      await resultOf(
        "local r, e = packs.required(), packs.extras()\nreturn r[1].name .. '|' .. e[1].name .. ',' .. e[2].name .. '|' .. #e",
        "[user-input]",
      ),
    ).toBe("user-input|subagents,web|2");
  });
  it("a declared Pack with no tools has an empty tools array", async () => {
    expect(
      await resultOf(
        "local s = packs.get('subagents')\nreturn s.name .. '|' .. #s.tools .. '|' .. packs.required()[1].name",
        "[subagents]",
      ),
    ).toBe("subagents|0|subagents");
  });
  it("a Pack that cannot serve has no object, and offering it gives its reason", async () => {
    const host = { services: ["input-broker"] };
    const lua = [
      "local e = {}",
      "for _, p in ipairs(packs.extras()) do e[#e + 1] = p.name end",
      "local ok, err = pcall(packs.offer, 'web')",
      "return tostring(packs.get('web')) .. '|' .. table.concat(e, ',') .. '|' .. tostring(tools.get('web/fetch')) .. '|' .. tostring(err)",
    ].join("\n");
    expect(await resultOf(lua, "", host)).toBe(
      "nil|subagents,user-input|nil|packs.offer: the web Pack is unavailable in this run: web needs runvil/search-provider, and this host provides none",
    );
  });
});

describe("Offers: shapes and refusals", () => {
  it("tools.offer shape errors", async () => {
    expect(await resultOf(errorOf("tools.offer('web/search', 'web/fetch')"))).toBe(
      "lua|tools.offer takes one tool or a list of them, got extra string",
    );
    expect(await resultOf(errorOf("tools.offer({ 'web/search' }, nil, 1)"))).toBe(
      "lua|tools.offer takes one tool or a list of them, got extra nil",
    );
    expect(await resultOf(errorOf("tools.offer(true)"))).toBe(
      "lua|tools.offer takes tool ids, tool objects, or arrays of them, got boolean",
    );
    expect(await resultOf(errorOf("tools.offer({ { 'web/search' } })"))).toBe(
      "lua|tools.offer takes tool ids, tool objects, or arrays of them, got table",
    );
    expect(await resultOf(errorOf("tools.offer(packs.get('web'))"))).toBe(
      "lua|tools.offer takes tool ids, tool objects, or arrays of them, got userdata",
    );
    expect(await resultOf(errorOf("tools.offer({ 'web/search', 3 })"))).toBe(
      "lua|tools.offer takes tool ids, tool objects, or arrays of them, got integer",
    );
  });
  it("tools.offer refuses names that are not catalog tools", async () => {
    for (const name of ["web/nope", "web_search", "Web/search", "fetch", "web/"]) {
      expect(await resultOf(errorOf(`tools.offer('${name}')`))).toBe(
        `lua|tools.offer: "${name}" is not a catalog tool in this run`,
      );
    }
  });
  it("tools.offer() and tools.offer({}) raise nothing", async () => {
    expect(
      await resultOf("tools.offer()\ntools.offer({})\ntools.offer({ x = 'nope' })\nreturn 'ok'"),
    ).toBe("ok");
  });
  it("packs.offer shape and name errors", async () => {
    expect(await resultOf(errorOf("packs.offer('web', 'user-input')"))).toBe(
      "lua|packs.offer takes one Pack or a list of them, got extra string",
    );
    expect(await resultOf(errorOf("packs.offer()"))).toBe(
      "lua|packs.offer takes a Pack id, a Pack object, or a list of them, got nil",
    );
    expect(await resultOf(errorOf("packs.offer(nil)"))).toBe(
      "lua|packs.offer takes a Pack id, a Pack object, or a list of them, got nil",
    );
    expect(await resultOf(errorOf("packs.offer(7)"))).toBe(
      "lua|packs.offer takes a Pack id, a Pack object, or a list of them, got integer",
    );
    expect(await resultOf(errorOf("packs.offer({ 'web', {} })"))).toBe(
      "lua|packs.offer takes a Pack id, a Pack object, or a list of them, got table",
    );
    expect(await resultOf(errorOf("packs.offer(tools.get('web/fetch'))"))).toBe(
      "lua|packs.offer takes a Pack id, a Pack object, or a list of them, got userdata",
    );
    expect(await resultOf(errorOf("packs.offer('web/fetch')"))).toContain(
      'lua|packs.offer takes a Pack id, a Pack object, or a list of them, got "web/fetch": ',
    );
    expect(await resultOf(errorOf("packs.offer('acme')"))).toBe(
      'lua|packs.offer: no Pack named "acme" in this run; declare it under uses: to require it, or offer it only when packs.get("acme") returns it',
    );
    expect(
      await resultOf(
        "packs.offer({})\npacks.offer({ x = 'nope' })\npacks.offer('subagents')\nreturn 'ok'",
      ),
    ).toBe("ok");
  });
  it("tools.call shape errors name the type", async () => {
    expect(await resultOf(errorOf("tools.call({}, {})"))).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got table",
    );
    expect(await resultOf(errorOf("tools.call(packs.get('web'))"))).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got userdata",
    );
    expect(await resultOf(errorOf("tools.call()"))).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got nil",
    );
  });
  it("a Tool object calls the tool the way its id does", async () => {
    const lua = [
      "local a = tools.call(tools.get('web/fetch'), { url = 'https://www.lua.org/' })",
      "local b = tools.call('web/fetch', { url = 'https://www.lua.org/' })",
      "return tostring(a == b) .. '|' .. tostring(tools.calls['web/fetch'])",
    ].join("\n");
    expect(await resultOf(lua)).toBe("true|2");
  });
});

describe("H1 pass", () => {
  it("tools and packs work in the H1 body", async () => {
    const prompt = [
      "---",
      "name: h1-check",
      "description: Reads the packs table before any section runs.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# H1 check",
      "",
      "```lua",
      "assert(packs.required()[1].name == 'web')",
      "assert(tools.get('web/fetch').pack == packs.get('web'))",
      "assert(#tools.extras() == 1)",
      "```",
      "",
      "## Work",
      "",
      "```lua",
      "return 'ready'",
      "```",
    ];
    const { result } = await runToolCase({ name: "h1", prompt, expect: {} });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe("ready");
  });
});

describe("Calling tools and counting calls", () => {
  it("args mistakes raise bare messages naming the Lua type", async () => {
    expect(await resultOf(errorOf("tools.call('web/fetch', 'x')"))).toBe(
      "lua|args must be a table, got string",
    );
    expect(await resultOf(errorOf("tools.call('web/fetch', 42)"))).toBe(
      "lua|args must be a table, got integer",
    );
    expect(await resultOf(errorOf("tools.call(42)"))).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got integer",
    );
    expect(await resultOf(errorOf("tools.call({ id = 'web/fetch', name = 'x' })"))).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got table",
    );
    expect(await resultOf(errorOf("tools.call('web/fetch', { f = function() end })"))).toBe(
      "lua|args must be a JSON-representable table: args.f must be JSON data, got function",
    );
  });
  it("an unknown name, a wire name, and a bare name are unbound tool calls naming the name", async () => {
    for (const name of ["web/nope", "web_fetch", "fetch"]) {
      expect(
        await resultOf(
          `local ok, err = pcall(tools.call, '${name}', {})\nreturn err.kind .. '|' .. err.name`,
        ),
      ).toBe(`unbound_tool|${name}`);
    }
  });
  it("tools.call reaches an undeclared runvil Pack's tool with no offer", async () => {
    const { result } = await runToolCase({
      name: "ask",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "uses: [web]",
        "---",
        "",
        "# Audit",
        "",
        "## Check",
        "",
        "```lua",
        "local out = tools.call('user-input/ask')",
        "return type(out) .. '|' .. out",
        "```",
      ],
      operator: ["hi"],
      expect: {},
    });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe(
      "string|hi",
    );
  });
  it("tools.calls is nil before the first call, then read-only, empty to pairs and #", async () => {
    const lua = [
      "local before = tostring(tools.calls)",
      "tools.offer('web/search')",
      "tools.call('web/fetch', { url = 'https://www.lua.org/' })",
      "local n = 0",
      "for _ in pairs(tools.calls) do n = n + 1 end",
      "local ok, err = pcall(function() tools.calls['web/fetch'] = 5 end)",
      "return before .. '|' .. n .. '|' .. #tools.calls .. '|' .. tostring(err) .. '|' .. tools.calls['web/search'] .. '|' .. tools.calls['web/fetch']",
    ].join("\n");
    expect(await resultOf(lua)).toBe("nil|0|0|tools.calls is read-only|0|1");
  });
  it("a missing count names the key, the seeded names, and the ending", async () => {
    const base = "tools.call('web/fetch', { url = 'https://www.lua.org/' })\n";
    const read = (key: string): string =>
      `local ok, err = pcall(function() return tools.calls['${key}'] end)\nreturn tostring(err)`;
    expect(await resultOf(base + read("web/search"))).toBe(
      'tools.calls: "web/search" has no seeded count; seeded names: ["web/fetch"] (a catalog tool that was neither offered in this section nor called with tools.call)',
    );
    expect(await resultOf(base + read("web_fetch"))).toBe(
      'tools.calls: "web_fetch" has no seeded count; seeded names: ["web/fetch"] - check for typos or offer it with tools.offer',
    );
  });
  it("a failed dispatch still counts, and a local call and its inner catalog call count once each", async () => {
    const lua = [
      "pcall(tools.call, 'web/fetch', { url = 'https://nowhere.example/' })",
      "local first = tools.calls['web/fetch']",
      "tools.offer_local('grab', 'Grab', {}, function(args) return tools.call('web/fetch', { url = 'https://www.lua.org/' }) end)",
      "tools.call('grab')",
      "return first .. '|' .. tostring(tools.calls.grab) .. '|' .. tostring(tools.calls['web/fetch'])",
    ].join("\n");
    expect(await resultOf(lua)).toBe("1|1|2");
  });
  it("packs.offer seeds its tools at 0; counts never pass to the next section", async () => {
    const prompt = [
      "---",
      "name: audit",
      "description: Audits one statement.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Audit",
      "",
      "## One",
      "",
      "```lua",
      "packs.offer('web')",
      "tools.call('web/fetch', { url = 'https://www.lua.org/' })",
      "var.one = tools.calls['web/search'] .. ',' .. tools.calls['web/fetch']",
      "```",
      "",
      "## Two",
      "",
      "```lua",
      "return var.one .. '|' .. tostring(tools.calls)",
      "```",
    ];
    const { result } = await runToolCase({
      name: "sections",
      prompt,
      web: { pages: { "https://www.lua.org/": "The Lua home page" } },
      expect: {},
    });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe("0,1|nil");
  });
  it("a script call's tool_result has an empty call id and the tool's wire name; a failing call has none", async () => {
    const { port } = await runToolCase({
      name: "events",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "uses: [web]",
        "---",
        "",
        "# Audit",
        "",
        "## Only",
        "",
        "```lua",
        "tools.call('web/fetch', { url = 'https://www.lua.org/' })",
        "pcall(tools.call, 'web/fetch', { url = 'https://nowhere.example/' })",
        "```",
      ],
      web: { pages: { "https://www.lua.org/": "The Lua home page" } },
      expect: {},
    });
    const results = port.events
      .filter((e) => e.type === "tool_result")
      .map((e) => {
        const r = e as unknown as Record<string, unknown>;
        return [r.tool_call_id, r.alias, r.tool, r.turn, r.trusted];
      });
    expect(results).toEqual([["", "web_fetch", "web/fetch", 0, false]]);
  });
});

describe("Local tools from Lua", () => {
  it("offer_local refusals: alias grammar, repeats, types, specs, argument kinds", async () => {
    const refusal = async (call: string): Promise<string> => await resultOf(errorOf(call), "");
    const def = (alias: string, params = "{}"): string =>
      `tools.offer_local(${alias}, 'd', ${params}, function() return '' end)`;
    expect(await refusal(def("'web/fetch'"))).toBe(
      'lua|invalid alias "web/fetch": expected [A-Za-z][A-Za-z0-9_-]{0,63}',
    );
    expect(await refusal(def("'1abc'"))).toBe(
      'lua|invalid alias "1abc": expected [A-Za-z][A-Za-z0-9_-]{0,63}',
    );
    expect(await refusal(def(`'a${"b".repeat(64)}'`))).toBe(
      `lua|invalid alias "a${"b".repeat(64)}": expected [A-Za-z][A-Za-z0-9_-]{0,63}`,
    );
    expect(await resultOf(`${def(`'A${"b".repeat(63)}'`)}\nreturn 'ok'`, "")).toBe("ok");
    expect(await refusal(`${def("'grab'")}\n${def("'grab'")}`)).toBe(
      'lua|tools.offer_local alias "grab" is already registered',
    );
    expect(await refusal(def("'grab'", "{ value = 'String' }"))).toBe(
      'lua|tools.offer_local param "value" has unsupported type "String": expected "string", "integer", "number", or "boolean"',
    );
    expect(await refusal(def("'grab'", "{ value = 5 }"))).toBe(
      'lua|tools.offer_local param "value" must be a type string or a {type, description} array',
    );
    expect(await refusal(def("'grab'", "{ value = {} }"))).toBe(
      "lua|error converting Lua nil to String (expected string or number)",
    );
    expect(await refusal("tools.offer_local('grab', 'd', {})")).toBe(
      "lua|handler must be a function, got nil",
    );
    expect(await refusal("tools.offer_local('grab', 'd', 'x', function() end)")).toBe(
      "lua|params must be a table, got string",
    );
    expect(await refusal("tools.offer_local()")).toBe("lua|alias must be a string, got nil");
    expect(await refusal(`${def("'pick'")}\ntools.offer('pick')`)).toBe(
      'lua|tools.offer: "pick" is not a catalog tool in this run',
    );
  });
  it("a refused definition leaves the alias free", async () => {
    const lua = [
      "pcall(tools.offer_local, 'grab', 'd', { v = 'nope' }, function() return 'bad' end)",
      "tools.offer_local('grab', 'd', { v = { 'string', 'about', 'ignored' } }, function(a) return 'good ' .. a.v end)",
      "return tools.call('grab', { v = 'x' })",
    ].join("\n");
    expect(await resultOf(lua, "")).toBe("good x");
  });
  it("the handler gets a fresh table built from the JSON of the arguments", async () => {
    const lua = [
      "local mine = { value = 'hi', n = 2 }",
      "local got",
      "tools.offer_local('grab', 'd', { value = 'string', n = 'integer' }, function(args)",
      "  got = args",
      "  args.value = 'changed'",
      "  return math.type(args.n)",
      "end)",
      "local r = tools.call('grab', mine)",
      "local e = tools.call('grab')",
      "return r .. '|' .. tostring(got == mine) .. '|' .. mine.value .. '|' .. tostring(next(got) ~= nil) .. '|' .. tostring(e)",
    ].join("\n");
    expect(await resultOf(lua, "")).toBe("integer|false|hi|true|");
  });
  it("handler returns: nothing, a number, a boolean, several values, a table, a function", async () => {
    const lua = [
      "tools.offer_local('none', 'd', {}, function() end)",
      "tools.offer_local('number', 'd', {}, function() return 42 end)",
      "tools.offer_local('float', 'd', {}, function() return 1.5 end)",
      "tools.offer_local('bool', 'd', {}, function() return false end)",
      "tools.offer_local('pair', 'd', {}, function() return 'first', 'second' end)",
      "tools.offer_local('tbl', 'd', {}, function() return { 1, 2 } end)",
      "tools.offer_local('fn', 'd', {}, function() return function() end end)",
      "local ok1, e1 = pcall(tools.call, 'tbl')",
      "local ok2, e2 = pcall(tools.call, 'fn')",
      "return '[' .. tools.call('none') .. ']|' .. tools.call('number') .. '|' .. tools.call('float') .. '|'",
      "  .. tools.call('bool') .. '|' .. tools.call('pair') .. '|' .. tostring(e1) .. '|' .. tostring(e2) .. '|' .. tools.calls.tbl",
    ].join("\n");
    expect(await resultOf(lua, "")).toBe(
      "[]|42|1.5|false|first|cannot return a table as a result|cannot return a function as a result|1",
    );
  });
  it("a handler's raise reaches the caller unchanged, and the call reports tool_call_failed", async () => {
    const { result, port } = await runToolCase({
      name: "raise",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "---",
        "",
        "# Audit",
        "",
        "## Only",
        "",
        "```lua",
        "local raised = { kind = 'custom' }",
        "tools.offer_local('grab', 'd', {}, function() error(raised) end)",
        "local ok, err = pcall(tools.call, 'grab', {})",
        "return tostring(ok) .. '|' .. tostring(err == raised) .. '|' .. err.kind .. '|' .. tools.calls.grab",
        "```",
      ],
      expect: {},
    });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe(
      "false|true|custom|1",
    );
    const types = port.events.map((e) => e.type).filter((t) => t.startsWith("tool_"));
    expect(types).toEqual(["tool_call_started", "tool_call_failed"]);
  });
  it("a failing bound call inside a handler: kind tool, no tool_result of its own, no request from the local call", async () => {
    const { result, port } = await runToolCase({
      name: "inner failure",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "uses: [web]",
        "---",
        "",
        "# Audit",
        "",
        "## Only",
        "",
        "```lua",
        "tools.offer_local('grab', 'Try the failing tool', {}, function()",
        "  local ok, err = pcall(tools.call, 'web/fetch', {})",
        "  return err.kind",
        "end)",
        "return tools.call('grab')",
        "```",
      ],
      expect: {},
    });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe("tool");
    const results = port.events
      .filter((e) => e.type === "tool_result")
      .map((e) => {
        const r = e as unknown as Record<string, unknown>;
        return [r.tool_call_id, r.alias, r.content, r.trusted, "tool" in r ? r.tool : "none"];
      });
    expect(results).toEqual([["", "grab", "tool", true, "none"]]);
    expect(port.toolRequests.map((r) => r.tool)).toEqual(["web/fetch"]);
    expect(port.requests).toEqual([]);
  });
  it("nested empty tables are sent as {}, json.array() as []", async () => {
    const { port } = await runToolCase({
      name: "args",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "uses: [web]",
        "---",
        "",
        "# Audit",
        "",
        "## Only",
        "",
        "```lua",
        "tools.call('web/search', { query = 'q', opts = {}, include_domains = json.array() })",
        "pcall(tools.call, 'web/search')",
        "pcall(tools.call, 'web/search', {})",
        "```",
      ],
      web: { search: { q: "1. result" } },
      expect: {},
    });
    expect(port.toolRequests.map((r) => r.arguments)).toEqual([
      { include_domains: [], opts: {}, query: "q" },
      {},
      {},
    ]);
  });
  it("jump stays refused after a nested call returns, and works once the outer handler returns", async () => {
    const { result } = await runToolCase({
      name: "jump",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        "---",
        "",
        "# Audit",
        "",
        "## Only",
        "",
        "```lua",
        "tools.offer_local('inner', 'd', {}, function() return 'in' end)",
        "tools.offer_local('outer', 'd', {}, function()",
        "  tools.call('inner', {})",
        "  local ok, err = pcall(jump, '## Other')",
        "  return tostring(err)",
        "end)",
        "var.seen = tools.call('outer')",
        "jump('## Other')",
        "```",
        "",
        "## Other",
        "",
        "```lua",
        "return var.seen",
        "```",
      ],
      expect: {},
    });
    expect(result.outcome === "succeeded" ? result.result : JSON.stringify(result)).toBe(
      "jump is unavailable inside a local tool handler: return a value from the handler and call jump from the block after the tool call returns",
    );
  });
});

describe("Offers seen through the call counts", () => {
  const fetch = "tools.call('web/fetch', { url = 'https://www.lua.org/' })";
  const has = (id: string): string =>
    `(pcall(function() return tools.calls['${id}'] end) and 'y' or 'n')`;
  it("a refused array offer and a refused extra-argument offer record nothing; a later valid offer lands", async () => {
    const lua = [
      "pcall(tools.offer, { 'web/search', 'nope/x' })",
      "pcall(tools.offer, 'user-input/ask', 'extra')",
      "pcall(packs.offer, { 'user-input', 'nope' })",
      fetch,
      `local before = ${has("web/search")} .. ${has("user-input/ask")}`,
      "tools.offer('web/search')",
      `local pending = ${has("web/search")}`,
      fetch,
      `return before .. '|' .. pending .. '|' .. ${has("web/search")} .. tools.calls['web/search']`,
    ].join("\n");
    expect(await resultOf(lua, "[web, user-input]")).toBe("nn|n|y0");
  });
  it("tools.offer reads the sequence part only, up to the first hole", async () => {
    const lua = [
      "tools.offer({ 'web/search', nil, 'nope/x', key = 'also/nope' })",
      "packs.offer({ 'user-input', nil, 'nope' })",
      fetch,
      `return ${has("web/search")} .. ${has("user-input/ask")} .. '|' .. select('#', tools.offer()) .. select('#', packs.offer({}))`,
    ].join("\n");
    expect(await resultOf(lua, "[web, user-input]")).toBe("yy|00");
  });
});

describe("Where the tools global is available", () => {
  /** Runs a whole prompt body (after the frontmatter) and returns its result or failure. */
  async function bodyResult(body: readonly string[], uses = "[web]"): Promise<string> {
    const { result } = await runToolCase({
      name: "body",
      prompt: [
        "---",
        "name: audit",
        "description: Audits one statement.",
        "runvil: 0",
        `uses: ${uses}`,
        "---",
        "",
        ...body,
      ],
      web: { pages: { "https://www.lua.org/": "The Lua home page" } },
      expect: {},
    });
    return result.outcome === "succeeded" ? (result.result ?? "") : JSON.stringify(result);
  }
  it("a required library offers for the requiring entry and reads Tool objects", async () => {
    expect(
      await bodyResult([
        "# Audit",
        "",
        "## Check",
        "",
        "```lua",
        "local id = require '## offers'",
        "tools.call('web/fetch', { url = 'https://www.lua.org/' })",
        "return id .. '|' .. tools.calls['web/search']",
        "```",
        "",
        "## offers",
        "",
        "```lua",
        "packs.offer('web')",
        "return tools.get('web/search').id",
        "```",
      ]),
    ).toBe("web/search|0");
  });
  it("a local tool defined in the H1 block belongs to the H1 pass only", async () => {
    expect(
      await bodyResult([
        "# Audit",
        "",
        "```lua",
        "tools.offer_local('grab', 'd', {}, function() return 'h1' end)",
        "var.h1 = tools.call('grab')",
        "```",
        "",
        "## Check",
        "",
        "```lua",
        "local ok, err = pcall(tools.call, 'grab')",
        "return var.h1 .. '|' .. err.kind .. '|' .. tostring(tools.calls)",
        "```",
      ]),
    ).toBe("h1|unbound_tool|nil");
  });
});

describe("Uncaught local tool failures", () => {
  it("an uncaught handler error fails the run with its message; a rejected return with the rule's", async () => {
    for (const [handler, text] of [
      ["error('handler exploded')", "handler exploded"],
      ["return { 1, 2 }", "cannot return a table as a result"],
    ] as const) {
      const { result } = await runToolCase({
        name: "uncaught",
        prompt: [
          "---",
          "name: audit",
          "description: Audits one statement.",
          "runvil: 0",
          "---",
          "",
          "# Audit",
          "",
          "## Only",
          "",
          "```lua",
          `tools.offer_local('grab', 'd', {}, function() ${handler} end)`,
          "return tools.call('grab')",
          "```",
        ],
        expect: {},
      });
      if (result.outcome !== "failed") throw new Error(JSON.stringify(result));
      expect(result.error.kind).toBe("Lua");
      expect(result.error.message).toContain(text);
    }
  });
});
