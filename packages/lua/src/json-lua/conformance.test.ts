/**
 * The cases of shared/conformance/lua/05-json.yaml whose Lua needs only json and plain Lua, run
 * in a VM with installErrors + installJson. Cases that use another Engine global run here with a
 * test stand-in built to the same contract (args as a string global, var and sys as sealed
 * views, store over a Map, messages as a full userdata), named "(stand-in ...)". Each test is
 * named after its case; the Lua is the case's, unchanged.
 */

import { describe, expect, it } from "vitest";
import type { LuaVm } from "../vm/lua-vm";
import {
  installStoreStandIn,
  installSysStandIn,
  installVarStandIn,
  resultOf,
  setUserdataGlobal,
  withJsonVm,
} from "./test-support";

/** Runs one case's block in a fresh VM (after `setup`) and returns its result. */
function caseResult(source: string, setup?: (vm: LuaVm) => void): Promise<unknown> {
  return withJsonVm(async (vm) => {
    setup?.(vm);
    return resultOf(vm, source);
  });
}

describe("05-json.yaml", () => {
  it("json-round-trip decodes, edits, and encodes again", async () => {
    expect(
      await caseResult(`local data = json.decode('{"name":"tides","tags":["sea"],"note":null}')
table.insert(data.tags, 'moon')
data.count = #data.tags
return json.encode(data)`),
    ).toBe('{"count":2,"name":"tides","note":null,"tags":["sea","moon"]}');
  });

  it("decoded-types shows the Lua values JSON text decodes to", async () => {
    expect(
      await caseResult(`local v = json.decode('{"n":2,"x":1.5,"big":9223372036854775808,"list":[1,null,3]}')
return math.type(v.n) .. ' ' .. math.type(v.x) .. ' ' .. math.type(v.big) .. ' ' .. #v.list .. ' ' .. tostring(v.list[2] == json.null)`),
    ).toBe("integer float float 3 true");
  });

  it("every json.decode call builds fresh writable tables", async () => {
    expect(
      await caseResult(`local a = json.decode('[1]')
local b = json.decode('[1]')
a[2] = 2
return tostring(a == b) .. ' ' .. json.encode(a) .. ' ' .. json.encode(b)`),
    ).toBe("false [1,2] [1]");
  });

  it("json.decode of x reports expected value", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode, 'x')
return tostring(err)`),
    ).toBe("json.decode: expected value at line 1 column 1");
  });

  it("json.decode of two documents reports trailing characters", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode, '1 2')
return tostring(err)`),
    ).toBe("json.decode: trailing characters at line 1 column 3");
  });

  it("decoding malformed text under pcall returns bad JSON (stand-in args)", async () => {
    expect(
      await caseResult(
        `local text = args
local ok, data = pcall(json.decode, text)
if not ok then
  return 'bad JSON: ' .. tostring(data)
end
return 'decoded'`,
        (vm) => vm.setGlobal("args", "x"),
      ),
    ).toBe("bad JSON: json.decode: expected value at line 1 column 1");
  });

  it("json.decode of an integer names the integer type", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode, 5)
return err.kind .. '|' .. tostring(err)`),
    ).toBe("lua|json.decode expects a string, got integer");
  });

  it("json.decode of a float names the number type", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode, 1.5)
return tostring(err)`),
    ).toBe("json.decode expects a string, got number");
  });

  it("null-check tells a JSON null apart from a missing field", async () => {
    expect(
      await caseResult(`local row = json.decode('{"id":7,"note":null}')
local seen = {}
if row.note then seen[#seen + 1] = 'truthy' end
if row.note == json.null then seen[#seen + 1] = 'null' end
if row.missing == nil then seen[#seen + 1] = 'absent' end
seen[#seen + 1] = json.encode({ id = row.id, note = json.null, gone = nil })
return table.concat(seen, ' ')`),
    ).toBe('truthy null absent {"id":7,"note":null}');
  });

  it("json.null holds its position in a list", async () => {
    expect(await caseResult("return json.encode({ json.null, 1 })")).toBe("[null,1]");
  });

  it("json.null is a userdata", async () => {
    expect(await caseResult("return type(json.null)")).toBe("userdata");
  });

  it("empty-list keeps a filtered list as a list", async () => {
    expect(
      await caseResult(`local long, plain = json.array(), {}
for _, word in ipairs({ 'alpha', 'beta', 'gamma' }) do
  if #word > 5 then
    long[#long + 1] = word
    plain[#plain + 1] = word
  end
end
return json.encode({ long = long, plain = plain })`),
    ).toBe('{"long":[],"plain":{}}');
  });

  it("json.array marks in place and returns new empty lists", async () => {
    expect(
      await caseResult(`local t = {}
local decoded = json.decode('[1]')
return tostring(json.array(t) == t) .. ' ' .. json.encode(json.array()) .. ' ' .. json.encode(json.array(nil)) .. ' ' .. tostring(json.array(decoded) == decoded) .. ' ' .. json.encode(t)`),
    ).toBe("true [] [] true []");
  });

  it("a marked list has a protected metatable", async () => {
    expect(
      await caseResult(`local ok, err = pcall(function() setmetatable(json.array(), {}) end)
return tostring(getmetatable(json.array())) .. '|' .. tostring(getmetatable(json.decode('[]'))) .. '|' .. tostring(ok) .. '|' .. tostring(err)`),
    ).toMatch(/^false\|false\|false\|.*cannot change a protected metatable$/);
  });

  it("a decoded list emptied with table.remove still encodes as an array", async () => {
    expect(
      await caseResult(`local list = json.decode('[1]')
table.remove(list)
return json.encode(list)`),
    ).toBe("[]");
  });

  it("json.array of an integer is refused", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.array, 5)
return tostring(err)`),
    ).toBe("json.array expects a table or no argument, got integer");
  });

  it("json.array of json.null names lightuserdata", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.array, json.null)
return tostring(err)`),
    ).toBe("json.array expects a table or no argument, got lightuserdata");
  });

  it("json.array refuses tables that already have a metatable (stand-in var, guarded _G)", async () => {
    expect(
      await caseResult(
        `local out = {}
for _, t in ipairs({ setmetatable({}, {}), var, _G }) do
  local ok, err = pcall(json.array, t)
  out[#out + 1] = tostring(err)
end
return table.concat(out, '|')`,
        (vm) => {
          installVarStandIn(vm);
          // The _G guard (another area) gives _G a protected metatable; this stands in for it.
          vm.runPrivileged({
            source: "local P = ... P.setmetatable(P._G, { __metatable = false })",
            chunkName: "=guard stand-in",
          });
        },
      ),
    ).toBe(
      "json.array: the table already has a metatable|json.array: the table already has a metatable|json.array: the table already has a metatable",
    );
  });

  it("encode-var encodes what var holds (stand-in var)", async () => {
    expect(
      await caseResult(
        `var.cfg = { mode = 'fast', sizes = { 2.0, 1.5 } }
var.empty = json.array()
return json.encode(var) .. ' ' .. #var.cfg.sizes .. ' ' .. json.encode(var.cfg.sizes)`,
        installVarStandIn,
      ),
    ).toBe('{"cfg":{"mode":"fast","sizes":[2,1.5]},"empty":[]} 0 [2,1.5]');
  });

  it("json.encode with no value gives null", async () => {
    expect(
      await caseResult(
        "return json.encode() .. ' ' .. json.encode(nil) .. ' ' .. json.encode(json.null)",
      ),
    ).toBe("null null null");
  });

  it("booleans encode as true and false", async () => {
    expect(await caseResult("return json.encode(true) .. ' ' .. json.encode(false)")).toBe(
      "true false",
    );
  });

  it("floats with no fractional part encode as integers", async () => {
    expect(
      await caseResult(
        "return json.encode(2.0) .. ' ' .. json.encode(-0.0) .. ' ' .. json.encode(-2^63)",
      ),
    ).toBe("2 0 -9223372036854775808");
  });

  it("other finite floats encode as their shortest text", async () => {
    expect(await caseResult("return json.encode(1.5) .. ' ' .. json.encode(1e300)")).toBe(
      "1.5 1e+300",
    );
  });

  it("NaN, infinity, and invalid UTF-8 raise", async () => {
    expect(
      await caseResult(`local ok1 = pcall(json.encode, 0/0)
local ok2 = pcall(json.encode, math.huge)
local ok3 = pcall(json.encode, '\\255')
return tostring(ok1) .. ' ' .. tostring(ok2) .. ' ' .. tostring(ok3)`),
    ).toBe("false false false");
  });

  it("a newline in a string encodes as \\n", async () => {
    expect(await caseResult("return json.encode('a\\nb')")).toBe('"a\\nb"');
  });

  it("tables encode as objects or arrays by their keys", async () => {
    expect(
      await caseResult(
        "return json.encode({}) .. ' ' .. json.encode({ 1, 2 }) .. ' ' .. json.encode({ a = 1 })",
      ),
    ).toBe('{} [1,2] {"a":1}');
  });

  it("object keys are written sorted bytewise", async () => {
    expect(await caseResult("return json.encode({ b = 1, a = 2, B = 3 })")).toBe(
      '{"B":3,"a":2,"b":1}',
    );
  });

  it("a table mixing list items and named keys is refused", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, { 1, a = 2 })
return tostring(err)`),
    ).toBe("json.encode: value mixes list items and named keys");
  });

  it("keys are checked before values", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, { [1] = function() end, a = 1 })
return tostring(err)`),
    ).toBe("json.encode: value mixes list items and named keys");
  });

  it("a missing list item is the first absent index", async () => {
    expect(
      await caseResult(`local out = {}
for _, t in ipairs({ { [1] = 'a', [3] = 'c' }, { [0] = 'a' }, { [-1] = 'a', [1] = 'b' } }) do
  local ok, err = pcall(json.encode, t)
  out[#out + 1] = tostring(err)
end
return table.concat(out, '|')`),
    ).toBe(
      "json.encode: value is missing list item [2]|json.encode: value is missing list item [1]|json.encode: value is missing list item [2]",
    );
  });

  it("a table that contains itself is refused", async () => {
    expect(
      await caseResult(`local t = {}
t.self = t
local ok, err = pcall(json.encode, t)
return tostring(err)`),
    ).toBe("json.encode: value.self contains itself");
  });

  it("the same table in two places encodes twice", async () => {
    expect(
      await caseResult(`local s = { 1 }
return json.encode({ a = s, b = { s } })`),
    ).toBe('{"a":[1],"b":[[1]]}');
  });

  it("an ordinary metatable is ignored when encoding", async () => {
    expect(
      await caseResult(`local t = setmetatable({ a = 1 }, {
  __tostring = function() return 'shown' end,
  __pairs = function() return next, {}, nil end,
})
return json.encode(t)`),
    ).toBe('{"a":1}');
  });

  it("json.encode of sys says the view cannot be read (stand-in sys)", async () => {
    expect(
      await caseResult(
        `local ok, err = pcall(json.encode, sys)
return tostring(err)`,
        installSysStandIn,
      ),
    ).toBe(
      "json.encode: value cannot be read (sys is sealed); copy the fields you need into a plain table",
    );
  });

  it("a fanout result entry encodes through its sealed view (stand-in result entry)", async () => {
    // tasks.fanout belongs to another area; its result entry is a sealed view with a table
    // __index and a __tostring, which is what json reads through.
    expect(
      await caseResult(`local data = { exhausted = false, item = 'alpha', ok = true, text = 'alpha-1' }
local r = { setmetatable({}, { __index = data, __tostring = function() return data.text end, __metatable = 'fanout result' }) }
return json.encode(r[1])`),
    ).toBe('{"exhausted":false,"item":"alpha","ok":true,"text":"alpha-1"}');
  });

  it("encode-refused names the failing value by its path", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, { items = { 'a', function() end } })
return err.kind .. '|' .. tostring(err)`),
    ).toBe("lua|json.encode: value.items[2] must be JSON data, got function");
  });

  it("a function passed as the whole value is refused at path value", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, function() end)
return tostring(err)`),
    ).toBe("json.encode: value must be JSON data, got function");
  });

  it("the messages userdata is not JSON data (stand-in messages)", async () => {
    expect(
      await caseResult(
        `local ok, err = pcall(json.encode, messages)
return tostring(err)`,
        (vm) => setUserdataGlobal(vm, "messages"),
      ),
    ).toBe("json.encode: value must be JSON data, got userdata");
  });

  it("a table with a table key and a function key reports the function key", async () => {
    expect(
      await caseResult(`local t = {}
t[{}] = 1
t[function() end] = 2
local ok, err = pcall(json.encode, t)
return tostring(ok) .. '|' .. tostring(err)`),
    ).toBe("false|json.encode: value has a function key");
  });

  it("options are checked before the value", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, function() end, 5)
return tostring(err)`),
    ).toBe("json.encode: options must be a table, got integer");
  });

  it("an unknown option is named", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, {}, { pretty = true })
return tostring(err)`),
    ).toBe("json.encode: unknown option pretty");
  });

  it("an option key that is neither a string nor an integer is named by its type", async () => {
    expect(
      await caseResult(`local ok1, err1 = pcall(json.encode, {}, { [true] = 1 })
local ok2, err2 = pcall(json.encode, {}, { [1.5] = 1 })
return tostring(err1) .. '|' .. tostring(err2)`),
    ).toBe("json.encode: unknown option boolean|json.encode: unknown option number");
  });

  it("a debug option that is not a boolean is refused", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode, {}, { debug = 1 })
return tostring(err)`),
    ).toBe("json.encode: option debug must be a boolean, got integer");
  });

  it("debug-dump writes placeholders for values that are not JSON data (stand-in store)", async () => {
    const files = new Map<string, string>();
    expect(
      await caseResult(
        `local state = { step = 2, retry = function() end, ratio = 0/0 }
state.self = state
store.write('dump.json', json.encode(state, { debug = true }))
return store.read('dump.json')`,
        (vm) => installStoreStandIn(vm, files),
      ),
    ).toBe('{"ratio":"NaN","retry":"[function]","self":"[cycle]","step":2}');
    expect(files.get("dump.json")).toBe(
      '{"ratio":"NaN","retry":"[function]","self":"[cycle]","step":2}',
    );
  });

  it("debug mode writes infinities as text", async () => {
    expect(
      await caseResult("return json.encode({ math.huge, -math.huge }, { debug = true })"),
    ).toBe('["Infinity","-Infinity"]');
  });

  it("debug mode turns a table that breaks the key rules into an object", async () => {
    expect(await caseResult("return json.encode({ [1] = 'a', [3] = 'c' }, { debug = true })")).toBe(
      '{"1":"a","3":"c"}',
    );
  });

  it("debug mode writes number and boolean keys as their text", async () => {
    expect(
      await caseResult(`local parts = {
  json.encode({ [2.5] = 'x' }, { debug = true }),
  json.encode({ [true] = 'y' }, { debug = true }),
  json.encode({ [1e300] = 'z' }, { debug = true }),
  json.encode({ [math.huge] = 'i' }, { debug = true }),
  json.encode({ [-math.huge] = 'n' }, { debug = true }),
}
return table.concat(parts, ' ')`),
    ).toBe('{"2.5":"x"} {"true":"y"} {"1e+300":"z"} {"Infinity":"i"} {"-Infinity":"n"}');
  });

  it("in debug mode the string key wins over the same integer key", async () => {
    expect(
      await caseResult("return json.encode({ [1] = 'int', ['1'] = 'str' }, { debug = true })"),
    ).toBe('{"1":"str"}');
  });

  it("debug mode writes userdata as a placeholder and keeps json.null (stand-in messages)", async () => {
    expect(
      await caseResult(
        "return json.encode({ m = messages, n = json.null }, { debug = true })",
        (vm) => setUserdataGlobal(vm, "messages"),
      ),
    ).toBe('{"m":"[userdata]","n":null}');
  });

  it("debug mode labels a sealed view it cannot read (stand-in sys)", async () => {
    expect(
      await caseResult("return json.encode({ s = sys }, { debug = true })", installSysStandIn),
    ).toBe('{"s":"[cannot read: sys is sealed]"}');
  });

  it("debug mode leaves out table keys", async () => {
    expect(
      await caseResult(`local t = { a = 1 }
t[{}] = 2
return json.encode(t, { debug = true })`),
    ).toBe('{"a":1}');
  });

  it("debug mode replaces invalid UTF-8 bytes", async () => {
    expect(await caseResult("return json.encode('\\255', { debug = true })")).toMatch(
      /^"(\uFFFD|\\u[fF][fF][fF][dD])"$/,
    );
  });

  it("a table at level 128 is too deep", async () => {
    expect(
      await caseResult(`local t = {}
local cur = t
for i = 1, 127 do
  local n = {}
  cur[1] = n
  cur = n
end
local dumped = json.encode(t, { debug = true })
local ok, err = pcall(json.encode, t)
local want_dump = string.rep('[', 127) .. '"[too deep]"' .. string.rep(']', 127)
local want_err = 'json.encode: value' .. string.rep('[1]', 127) .. ' is nested more than 127 levels deep'
return tostring(dumped == want_dump) .. ' ' .. tostring(not ok and tostring(err) == want_err)`),
    ).toBe("true true");
  });

  it("a value that runs out the size budget is too large to encode", {
    timeout: 60_000,
  }, async () => {
    expect(
      await caseResult(`local t = {} for i = 1, 40 do t = { t, t } end
local ok1, err1 = pcall(json.encode, t)
local ok2, err2 = pcall(json.encode, t, { debug = true })
return tostring(err1) .. '|' .. tostring(err2)`),
    ).toBe("json.encode: value is too large to encode|json.encode: value is too large to encode");
  });

  it("more than 100,000 string keys on one path is too large to encode", async () => {
    expect(
      await caseResult(`local t = {}
for i = 1, 100001 do t['k' .. i] = i end
local ok, err = pcall(json.encode, t)
return tostring(err)`),
    ).toBe("json.encode: value is too large to encode");
  });

  it("a list of a million strings still encodes", async () => {
    expect(
      await caseResult(`local list = {}
for i = 1, 1000000 do list[i] = 'x' end
return tostring(#json.encode(list))`),
    ).toBe("4000001");
  });

  it("json.decode accepts 127 nested arrays and rejects 128", async () => {
    expect(
      await caseResult(`local ok1 = pcall(json.decode, string.rep('[', 127) .. string.rep(']', 127))
local ok2, err2 = pcall(json.decode, string.rep('[', 128) .. string.rep(']', 128))
return tostring(ok1) .. '|' .. tostring(err2)`),
    ).toBe("true|json.decode: recursion limit exceeded at line 1 column 128");
  });

  it("text over 8,388,608 bytes is refused before parsing", async () => {
    expect(
      await caseResult(`local big = string.rep(' ', 8388609)
local ok1, err1 = pcall(json.decode, big)
local ok2, err2 = pcall(json.decode_lines, big)
return tostring(err1) .. '|' .. tostring(err2)`),
    ).toBe(
      "json.decode: input exceeds the 8388608-byte limit|json.decode_lines: input exceeds the 8388608-byte limit",
    );
  });

  it("rows appends JSON Lines and reads them back (stand-in store, one VM per section)", async () => {
    const files = new Map<string, string>();
    await caseResult(
      "store.append('rows.jsonl', json.encode_lines({ { n = 1, tag = 'a' } }))",
      (vm) => installStoreStandIn(vm, files),
    );
    expect(
      await caseResult(
        `store.append('rows.jsonl', json.encode_lines({ { n = 2, tag = 'b' }, { n = 3, tag = json.null } }))
local rows = json.decode_lines(store.read('rows.jsonl'))
return json.encode(rows)`,
        (vm) => installStoreStandIn(vm, files),
      ),
    ).toBe('[{"n":1,"tag":"a"},{"n":2,"tag":"b"},{"n":3,"tag":null}]');
    expect(files.get("rows.jsonl")).toBe(
      '{"n":1,"tag":"a"}\n{"n":2,"tag":"b"}\n{"n":3,"tag":null}\n',
    );
  });

  it("json.encode_lines of an empty list gives the empty string", async () => {
    expect(
      await caseResult(
        "return '[' .. json.encode_lines({}) .. '][' .. json.encode_lines(json.array()) .. ']'",
      ),
    ).toBe("[][]");
  });

  it("json.encode_lines reads through a sealed var list (stand-in var)", async () => {
    expect(
      await caseResult(
        `var.rows = { { n = 1 }, { n = 2 } }
return json.encode_lines(var.rows)`,
        installVarStandIn,
      ),
    ).toBe('{"n":1}\n{"n":2}\n');
  });

  it("json.decode_lines separates values by any whitespace", async () => {
    expect(
      await caseResult(`local blank = json.decode_lines('  \\n \\n')
local mixed = json.decode_lines('1 2\\r\\n{"a":\\n3}\\n\\n')
return json.encode(blank) .. ' ' .. json.encode(mixed)`),
    ).toBe('[] [1,2,{"a":3}]');
  });

  it("json.decode_lines counts lines across the whole text", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode_lines, '{"a":1}\\n{"a":2}\\n{"a":x}')
return tostring(err)`),
    ).toBe("json.decode_lines: expected value at line 3 column 6");
  });

  it("json.decode_lines of an integer names the integer type", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.decode_lines, 5)
return tostring(err)`),
    ).toBe("json.decode_lines expects a string, got integer");
  });

  it("json.encode_lines of a string expects a list", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, 'x')
return tostring(err)`),
    ).toBe("json.encode_lines expects a list, got string");
  });

  it("json.encode_lines of an object names its first key type", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, { a = 1 })
return tostring(err)`),
    ).toBe("json.encode_lines expects a list, got a table with a string key");
  });

  it("json.encode_lines refuses a table mixing list items and named keys", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, { { n = 1 }, a = 2 })
return tostring(err)`),
    ).toBe("json.encode_lines: value mixes list items and named keys");
  });

  it("json.encode_lines refuses a list with a gap", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, { [1] = 1, [3] = 3 })
return tostring(err)`),
    ).toBe("json.encode_lines: value is missing list item [2]");
  });

  it("json.encode_lines of sys says the view cannot be read (stand-in sys)", async () => {
    expect(
      await caseResult(
        `local ok, err = pcall(json.encode_lines, sys)
return tostring(err)`,
        installSysStandIn,
      ),
    ).toBe(
      "json.encode_lines: value cannot be read (sys is sealed); copy the fields you need into a plain table",
    );
  });

  it("json.encode_lines names an unknown option", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, {}, { pretty = true })
return tostring(err)`),
    ).toBe("json.encode_lines: unknown option pretty");
  });

  it("json.encode_lines names a failing item by its path under the list", async () => {
    expect(
      await caseResult(`local ok, err = pcall(json.encode_lines, { {}, { name = function() end } })
return tostring(err)`),
    ).toBe("json.encode_lines: value[2].name must be JSON data, got function");
  });

  it("json.encode_lines of a list that contains itself", async () => {
    expect(
      await caseResult(`local list = {}
list[1] = list
local ok, err = pcall(json.encode_lines, list)
return tostring(err)`),
    ).toBe("json.encode_lines: value[1] contains itself");
  });

  it("json.encode_lines in debug mode writes placeholders inside items", async () => {
    expect(
      await caseResult("return json.encode_lines({ { f = function() end } }, { debug = true })"),
    ).toBe('{"f":"[function]"}\n');
  });

  it("json.encode_lines shares one size budget across its items", { timeout: 60_000 }, async () => {
    expect(
      await caseResult(`local t = {} for i = 1, 40 do t = { t, t } end
local ok, err = pcall(json.encode_lines, { t })
return tostring(err)`),
    ).toBe("json.encode_lines: value is too large to encode");
  });

  it("the first refused value follows the fixed key order", async () => {
    expect(
      await caseResult(`local ok1, err1 = pcall(json.encode, { b = function() end, a = function() end })
local ok2, err2 = pcall(json.encode, { function() end, function() end })
return tostring(err1) .. '|' .. tostring(err2)`),
    ).toBe(
      "json.encode: value.a must be JSON data, got function|json.encode: value[1] must be JSON data, got function",
    );
  });

  it("tables with a boolean or float key are refused", async () => {
    expect(
      await caseResult(`local ok1 = pcall(json.encode, { [true] = 1 })
local ok2 = pcall(json.encode, { [2.5] = 1 })
return tostring(ok1) .. ' ' .. tostring(ok2)`),
    ).toBe("false false");
  });

  it("reading through a var view adds no nesting level (stand-in var)", async () => {
    expect(
      await caseResult(
        `local t = {}
local cur = t
for i = 1, 126 do
  local n = {}
  cur[1] = n
  cur = n
end
var.x = t
return tostring(json.encode(var.x) == json.encode(t))`,
        installVarStandIn,
      ),
    ).toBe("true");
  });

  it("a loop of 127 tables reports contains itself and a loop of 128 reports the depth", async () => {
    expect(
      await caseResult(`local function ring(size)
  local first = {}
  local cur = first
  for i = 2, size do
    local n = {}
    cur[1] = n
    cur = n
  end
  cur[1] = first
  return first
end
local ok1, err1 = pcall(json.encode, ring(127))
local ok2, err2 = pcall(json.encode, ring(128))
local path = 'json.encode: value' .. string.rep('[1]', 127)
return tostring(tostring(err1) == path .. ' contains itself') .. ' ' .. tostring(tostring(err2) == path .. ' is nested more than 127 levels deep')`),
    ).toBe("true true");
  });
});
