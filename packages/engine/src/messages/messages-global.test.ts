import { describe, expect, it } from "vitest";
import { modelPrompt, runModelPrompt, succeeded } from "../models/test-support/model-run";

/** Runs `lua` as the block of `## Main` and returns the result text. */
async function result(lua: string, options: { limit?: number } = {}): Promise<string | null> {
  return succeeded(
    await runModelPrompt(modelPrompt(lua), {
      ...(options.limit === undefined ? {} : { limits: { luaMemoryBytes: options.limit } }),
    }),
  );
}

/** The message of the error `lua` raises, caught with pcall. */
async function refusal(lua: string): Promise<string | null> {
  return result(
    `local ok, err = pcall(function() ${lua} end)\nassert(not ok, 'no error')\nreturn err.kind .. '|' .. tostring(err)`,
  );
}

describe("the messages list", () => {
  it("starts empty in every section VM and lasts across the section's blocks", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "---",
        "",
        "# T",
        "",
        "```lua",
        "messages:user('from H1')",
        "```",
        "",
        "## One",
        "",
        "```lua",
        "var.first = #messages",
        "messages:user('a')",
        "```",
        "",
        "Prose between.",
        "",
        "```lua",
        "messages:assistant('b')",
        "var.one = #messages",
        "```",
        "",
        "## Two",
        "",
        "```lua",
        "return var.first .. '|' .. var.one .. '|' .. #messages",
        "```",
        "",
      ].join("\n"),
    );
    expect(succeeded(run)).toBe("0|2|0");
  });

  it("appends with user, assistant and system and reads records by index", async () => {
    expect(
      await result(
        `messages:system('rules')
messages:user('hello')
messages:assistant('hi')
local last = messages[#messages]
return #messages .. '|' .. messages[1].role .. ':' .. messages[1].content .. '|' ..
  messages[2].role .. '|' .. last.role .. ':' .. last.content .. '|' ..
  tostring(messages[0]) .. '|' .. tostring(messages[4]) .. '|' .. tostring(messages[1.5]) .. '|' ..
  tostring(messages['1']) .. '|' .. tostring(messages[2.0].content) .. '|' .. tostring(messages.nothing)`,
      ),
    ).toBe("3|system:rules|user|assistant:hi|nil|nil|nil|nil|hello|nil");
  });

  it("iterates with pairs and ipairs, in order", async () => {
    expect(
      await result(
        `messages:user('a')
messages:assistant('b')
local out = {}
for i, r in pairs(messages) do out[#out + 1] = i .. '=' .. r.content end
for i, r in ipairs(messages) do out[#out + 1] = i .. ':' .. r.role end
return table.concat(out, ',')`,
      ),
    ).toBe("1=a,2=b,1:user,2:assistant");
  });

  it("is a userdata with a guarded metatable and a count in its text", async () => {
    expect(
      await result(
        `messages:user('a')
return type(messages) .. '|' .. tostring(messages) .. '|' .. getmetatable(messages) .. '|' ..
  tostring(rawequal ~= nil)`,
      ),
    ).toBe("userdata|messages: 1 records|messages is guarded|false");
  });

  it("gives one view per record, which keeps its record after a restore", async () => {
    expect(
      await result(
        `messages:user('a')
local first = messages[1]
local same = tostring(first == messages[1])
messages:restore({ { role = 'user', content = 'b' } })
return same .. '|' .. first.content .. '|' .. messages[1].content .. '|' .. tostring(first == messages[1])`,
      ),
    ).toBe("true|a|b|false");
  });

  it("refuses every assignment with its texts", async () => {
    expect(await refusal("messages = {}")).toBe(
      "lua|messages is the section's conversation and cannot be assigned; add records with messages:user, messages:assistant or messages:system",
    );
    expect(await refusal("messages[1] = 'x'")).toBe(
      "lua|messages is read-only: add records with messages:user, messages:assistant or messages:system",
    );
    expect(await refusal("messages.user = print")).toBe(
      "lua|messages is read-only: add records with messages:user, messages:assistant or messages:system",
    );
  });

  it("keeps the guard's refusal whatever metatable _G gets", async () => {
    expect(
      await result(
        `local seen = {}
setmetatable(_G, { __newindex = function(t, k, v) seen[#seen + 1] = k end, __index = function() return 'author' end })
local ok = pcall(function() messages = {} end)
return tostring(ok) .. '|' .. #seen .. '|' .. type(messages)`,
      ),
    ).toBe("false|0|userdata");
  });

  it("is not JSON data: var and json.encode refuse it, debug mode writes a placeholder", async () => {
    expect(await refusal("var.m = messages")).toBe(
      "lua|runtime error: var.m must be JSON data, got userdata",
    );
    expect(await refusal("messages:user('a') var.r = messages[1]")).toBe(
      "lua|runtime error: var.r must be JSON data, got userdata",
    );
    expect(await refusal("json.encode(messages)")).toBe(
      "lua|json.encode: value must be JSON data, got userdata",
    );
    expect(
      await result(
        "messages:user('a') return json.encode({ m = messages, r = messages[1], n = json.null }, { debug = true })",
      ),
    ).toBe('{"m":"[userdata]","n":null,"r":"[userdata]"}');
  });
});

describe("the appenders", () => {
  it.each([
    ["messages:user()", "lua|messages:user takes (text)"],
    ["messages:user('a', 'b')", "lua|messages:user takes (text)"],
    ["messages:assistant()", "lua|messages:assistant takes (text)"],
    ["messages:system(1, 2)", "lua|messages:system takes (text)"],
    ["messages.user('a')", "lua|messages:user must be called with a colon: messages:user(text)"],
    [
      "messages.assistant()",
      "lua|messages:assistant must be called with a colon: messages:assistant(text)",
    ],
    ["messages:user(nil)", "lua|text must be a string, got nil"],
    ["messages:user(42)", "lua|text must be a string, got integer"],
    ["messages:user(2.5)", "lua|text must be a string, got number"],
    ["messages:user({})", "lua|text must be a string, got table"],
    ["messages:user('')", "lua|text must not be empty"],
    ["messages:system('\\255')", "lua|text is not valid UTF-8"],
  ])("%s raises %s", async (lua, message) => {
    expect(await refusal(lua)).toBe(message);
  });

  it("return nothing and append nothing when refused", async () => {
    expect(
      await result(
        "local n = select('#', messages:user('a')) pcall(messages.user, messages, '') return n .. '|' .. #messages",
      ),
    ).toBe("0|1");
  });

  it("refuse a record that would take the conversation past the VM's memory limit", async () => {
    expect(
      await result(
        `local s = string.rep('x', 1500000)
messages:user(s)
messages:assistant(s)
local ok, err = pcall(messages.user, messages, s)
return #messages .. '|' .. err.kind .. '|' .. tostring(err)`,
        { limit: 4_000_000 },
      ),
    ).toBe("2|lua|messages: the conversation would exceed its 4000000-byte limit");
  });

  it("builds a 100000-character user message", async () => {
    expect(await result("messages:user(string.rep('x', 100000)) return #messages[1].content")).toBe(
      "100000",
    );
  });
});

describe("record views", () => {
  it("read role and content, tostring as their content, and nil for any other field", async () => {
    expect(
      await result(
        `messages:user('hello')
local r = messages[1]
return type(r) .. '|' .. r.role .. '|' .. tostring(r) .. '|' .. tostring(r.tool_calls) .. '|' ..
  tostring(r.tool_call_id) .. '|' .. tostring(r.name) .. '|' .. tostring(r.other) .. '|' .. tostring(r[1])`,
      ),
    ).toBe("userdata|user|hello|nil|nil|nil|nil|nil");
  });

  it("iterate their present fields in order with pairs", async () => {
    expect(
      await result(
        `messages:restore({
  { role = 'user', content = 'q' },
  { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'grab', arguments = { v = 'a' } } } },
  { role = 'tool', content = 'got a', tool_call_id = 'c1', name = 'grab' },
})
local out = {}
for i = 1, #messages do
  local keys = {}
  for k in pairs(messages[i]) do keys[#keys + 1] = k end
  out[#out + 1] = table.concat(keys, ',')
end
return table.concat(out, ' / ')`,
      ),
    ).toBe("role,content / role,content,tool_calls / role,content,tool_call_id,name");
  });

  it("give tool_calls as a fresh marked list on every read, arguments decoded as json.decode would", async () => {
    expect(
      await result(
        `messages:restore({
  { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'grab', arguments = json.decode('{"v":null,"l":[]}') } } },
  { role = 'tool', content = '', tool_call_id = 'c1', name = 'grab' },
})
local r = messages[1]
local a, b = r.tool_calls, r.tool_calls
a[1].name = 'changed'
return tostring(a == b) .. '|' .. b[1].name .. '|' .. tostring(b[1].arguments.v == json.null) .. '|' ..
  json.encode(b) .. '|' .. messages[2].tool_call_id .. '|' .. messages[2].name .. '|' .. tostring(messages[2])`,
      ),
    ).toBe('false|grab|true|[{"arguments":{"l":[],"v":null},"id":"c1","name":"grab"}]|c1|grab|');
  });

  it("are frozen", async () => {
    expect(await refusal("messages:user('a') messages[1].content = 'b'")).toBe(
      'lua|message records are frozen: cannot assign field "content"',
    );
    expect(await refusal("messages:user('a') messages[1][3] = 'b'")).toBe(
      'lua|message records are frozen: cannot assign field "3"',
    );
    expect(await result("messages:user('a') return getmetatable(messages[1])")).toBe(
      "message records are frozen",
    );
  });
});

describe("messages:copy", () => {
  it("gives a fresh plain list of plain records that is JSON data", async () => {
    expect(
      await result(
        `messages:user('q')
messages:assistant('a')
local c = messages:copy()
c[1].content = 'changed'
var.kept = c
return #c .. '|' .. messages[1].content .. '|' .. tostring(c == messages:copy()) .. '|' .. json.encode(messages:copy())`,
      ),
    ).toBe('2|q|false|[{"content":"q","role":"user"},{"content":"a","role":"assistant"}]');
  });

  it("of an empty list encodes as an empty JSON list", async () => {
    expect(await result("return json.encode(messages:copy())")).toBe("[]");
  });

  it("takes no argument and a colon", async () => {
    expect(await refusal("messages:copy(1)")).toBe("lua|messages:copy takes ()");
    expect(await refusal("messages.copy()")).toBe(
      "lua|messages:copy must be called with a colon: messages:copy()",
    );
  });
});

describe("messages:restore", () => {
  it("replaces every record with plain tables or record views", async () => {
    expect(
      await result(
        `messages:user('one')
messages:assistant('two')
local kept = messages[2]
messages:restore({ { role = 'system', content = 'sys' }, kept, messages:copy()[1] })
local out = {}
for _, r in pairs(messages) do out[#out + 1] = r.role .. ':' .. r.content end
return select('#', messages:restore(messages:copy())) .. '|' .. table.concat(out, ',')`,
      ),
    ).toBe("0|system:sys,assistant:two,user:one");
  });

  it("restores to an empty list", async () => {
    expect(await result("messages:user('a') messages:restore({}) return #messages")).toBe("0");
  });

  it.each([
    ["messages:restore()", "lua|messages:restore takes (list)"],
    ["messages:restore({}, 1)", "lua|messages:restore takes (list)"],
    [
      "messages.restore({})",
      "lua|messages:restore must be called with a colon: messages:restore(list)",
    ],
    ["messages:restore('x')", "lua|messages:restore takes a list of records, got string"],
    ["messages:restore({ a = 1 })", "lua|messages:restore takes a list of records, got table"],
    [
      "messages:restore({ [1] = { role = 'user', content = 'a' }, [3] = {} })",
      "lua|messages:restore takes a list of records, got table",
    ],
    ["messages:restore({ 5 })", "lua|messages:restore: record 1 is a integer, not a record"],
    [
      "messages:restore({ { role = 'bot', content = 'x' } })",
      `lua|messages:restore: record 1 has role "bot"; a record's role is system, user, assistant or tool`,
    ],
    [
      "messages:restore({ { role = 'user', content = 5 } })",
      "lua|messages:restore: record 1 has no content string",
    ],
    [
      "messages:restore({ { role = 'user', content = '\\255' } })",
      "lua|messages:restore: record 1 has content that is not valid UTF-8",
    ],
    [
      "messages:restore({ { role = 'user', content = 'q' }, { role = 'tool', content = 'r', tool_call_id = 'c1', name = 'g' } })",
      "lua|messages:restore: record 2 is a tool record that answers no call",
    ],
    [
      "messages:restore({ { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'g', arguments = {} }, { id = 'c2', name = 'g', arguments = {} } } }, { role = 'tool', content = '', tool_call_id = 'c1', name = 'g' } })",
      `lua|messages:restore: record 1 leaves call "c2" unanswered`,
    ],
    [
      "messages:restore({ { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'g', arguments = json.array() } } }, { role = 'tool', content = '', tool_call_id = 'c1', name = 'g' } })",
      `lua|messages:restore: record 1 has tool call "c1" whose arguments are not a JSON object`,
    ],
    [
      "messages:restore({ { role = 'assistant', content = '', tool_calls = { { id = 'c1', name = 'g', arguments = { f = tostring } } } } })",
      `lua|messages:restore: record 1 has tool call "c1" whose arguments are not a JSON object`,
    ],
    [
      "messages:restore({ { role = 'assistant', content = 'x', tool_calls = 'no' } })",
      "lua|messages:restore: record 1 has tool_calls that is not a list of calls",
    ],
    [
      "messages:restore({ { role = 'assistant', content = '', tool_calls = { 'c1' } } })",
      "lua|messages:restore: record 1 has tool call 1 that is not a table of id, name and arguments",
    ],
  ])("%s raises %s", async (lua, message) => {
    expect(await refusal(lua)).toBe(message);
  });

  it("changes nothing when it refuses", async () => {
    expect(
      await result(
        "messages:user('kept') pcall(messages.restore, messages, { { role = 'user', content = 'a' }, 5 }) return #messages .. messages[1].content",
      ),
    ).toBe("1kept");
  });
});
