import { describe, expect, it } from "vitest";
import { VmHandle } from "../vm/lua-vm";
import { pushGlobals } from "../vm/sandbox";
import { errorOf, privileged, resultOf, setUserdataGlobal, withJsonVm } from "./test-support";

describe("json.encode scalars", () => {
  it("writes integers exactly and integral floats in the 64-bit range as integers", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `return table.concat({ json.encode(math.maxinteger), json.encode(math.mininteger),
  json.encode(9007199254740993), json.encode(2^60), json.encode(2^63), json.encode(-2^63),
  json.encode(1e15), json.encode(123.0) }, ' ')`,
        ),
      ).toBe(
        "9223372036854775807 -9223372036854775808 9007199254740993 1152921504606846976 9223372036854776000 -9223372036854775808 1000000000000000 123",
      );
    });
  });

  it("writes other finite floats as the shortest text that reads back the same", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return table.concat({ json.encode(0.1), json.encode(-1.5), json.encode(1e-7), json.encode(1/3), json.encode(5e-324), json.encode(1.7976931348623157e308) }, ' ')",
        ),
      ).toBe("0.1 -1.5 1e-7 0.3333333333333333 5e-324 1.7976931348623157e+308");
    });
  });

  it("escapes quotes, backslashes and control bytes, and writes other text as is", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(vm, `return json.encode('q"b\\\\s/\\0\\1\\8\\12\\r\\t\\127 é 🌊')`),
      ).toBe('"q\\"b\\\\s/\\u0000\\u0001\\b\\f\\r\\t\u007f é 🌊"');
    });
  });

  it("refuses NaN, the infinities and invalid UTF-8 with the value's path", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.encode, { x = 0/0 }")).toBe(
        "lua|json.encode: value.x must be a finite number, got NaN",
      );
      expect(await errorOf(vm, "json.encode, { math.huge }")).toBe(
        "lua|json.encode: value[1] must be a finite number, got Infinity",
      );
      expect(await errorOf(vm, "json.encode, -math.huge")).toBe(
        "lua|json.encode: value must be a finite number, got -Infinity",
      );
      expect(await errorOf(vm, "json.encode, { s = { 'ok', 'caf\\233' } }")).toBe(
        "lua|json.encode: value.s[2] is not valid UTF-8",
      );
    });
  });

  it("refuses functions, threads and userdata other than json.null", async () => {
    await withJsonVm(async (vm) => {
      setUserdataGlobal(vm, "box");
      privileged(vm, "local P = ... P.rawset(P._G, 'co', P.coroutine.create(function() end))");
      const state = VmHandle.stateOf(vm);
      state.hostOp(() => {
        const { kernel, L } = state;
        pushGlobals(state, L);
        kernel.pushText(L, "light");
        kernel.x.lua_pushlightuserdata(L, 8);
        kernel.x.lua_rawset(L, -3);
        kernel.x.lua_settop(L, -2);
      });
      expect(await errorOf(vm, "json.encode, { a = { f = print or error } }")).toBe(
        "lua|json.encode: value.a.f must be JSON data, got function",
      );
      expect(await errorOf(vm, "json.encode, { co }")).toBe(
        "lua|json.encode: value[1] must be JSON data, got thread",
      );
      expect(await errorOf(vm, "json.encode, { box }")).toBe(
        "lua|json.encode: value[1] must be JSON data, got userdata",
      );
      expect(await errorOf(vm, "json.encode, { n = light }")).toBe(
        "lua|json.encode: value.n must be JSON data, got lightuserdata",
      );
      expect(
        await resultOf(
          vm,
          "return json.encode({ co, box, light, json.null, error }, { debug = true })",
        ),
      ).toBe('["[thread]","[userdata]","[userdata]",null,"[function]"]');
    });
  });
});

describe("json.encode tables", () => {
  it("sorts object keys bytewise", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return json.encode({ z = 1, ['é'] = 2, B = 3, a = 4, ab = 5, [''] = 6, ['a\\0'] = 7 })",
        ),
      ).toBe('{"":6,"B":3,"a":4,"a\\u0000":7,"ab":5,"z":1,"é":2}');
    });
  });

  it("sorts the keys of records of one shape, and of records that differ, each correctly", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local rows = {}
for i = 1, 3 do rows[#rows + 1] = { b = i, a = i, c = i } end
rows[#rows + 1] = { c = 4, a = 4, b = 4 }
rows[#rows + 1] = { x = 5, y = 5, z = 5 }
rows[#rows + 1] = { ['\\239\\187\\191bom'] = 6, a = 6, b = 6 }
return json.encode(rows)`,
        ),
      ).toBe(
        '[{"a":1,"b":1,"c":1},{"a":2,"b":2,"c":2},{"a":3,"b":3,"c":3},{"a":4,"b":4,"c":4},{"x":5,"y":5,"z":5},{"a":6,"b":6,"\uFEFFbom":6}]',
      );
    });
  });

  it("sorts many keys the same way", async () => {
    await withJsonVm(async (vm) => {
      const keys = Array.from({ length: 40 }, (_, i) => `k${(i * 7919) % 40}`);
      const source = `local t = {} for _, k in ipairs({ ${keys.map((k) => `'${k}'`).join(", ")} }) do t[k] = k end return json.encode(t)`;
      const sorted = [...new Set(keys)].sort();
      expect(await resultOf(vm, source)).toBe(`{${sorted.map((k) => `"${k}":"${k}"`).join(",")}}`);
    });
  });

  it("writes lists whose items were stored out of order", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "local t = {} t[3] = 'c' t[1] = 'a' t[2] = 'b' t[5] = 'e' t[4] = 'd' return json.encode(t)",
        ),
      ).toBe('["a","b","c","d","e"]');
    });
  });

  it("refuses a key that is not valid UTF-8, naming it with a replacement character", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await errorOf(vm, "json.encode, { a = { ['caf\\233'] = 1, b = function() end } }"),
      ).toBe("lua|json.encode: value.a.caf\uFFFD is a key that is not valid UTF-8");
    });
  });

  it("names the first bad key type in the fixed key order", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.encode, { [{}] = 1, [1.5] = 2, [true] = 3 }")).toBe(
        "lua|json.encode: value has a boolean key",
      );
      expect(await errorOf(vm, "json.encode, { [{}] = 1, [1.5] = 2, a = 1, [1] = 1 }")).toBe(
        "lua|json.encode: value has a number key",
      );
      expect(await errorOf(vm, "json.encode, { x = { [{}] = 1, [json.null] = 2 } }")).toBe(
        "lua|json.encode: value.x has a lightuserdata key",
      );
      expect(await errorOf(vm, "json.encode, { [{}] = 1, a = 1 }")).toBe(
        "lua|json.encode: value has a table key",
      );
      expect(await errorOf(vm, "json.encode, { [1] = 1, [2] = 2, [2^53] = 3 }")).toBe(
        "lua|json.encode: value is missing list item [3]",
      );
    });
  });

  it("requires a marked list's keys to be exactly 1 to n", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.encode, json.array({ a = 1 })")).toBe(
        "lua|json.encode: value has a string key",
      );
      expect(await errorOf(vm, "json.encode, json.array({ 1, a = 1 })")).toBe(
        "lua|json.encode: value has a string key",
      );
      expect(await errorOf(vm, "json.encode, { l = json.array({ [2] = 1 }) }")).toBe(
        "lua|json.encode: value.l is missing list item [1]",
      );
      expect(await resultOf(vm, "return json.encode(json.array({ 'a', 'b' }))")).toBe('["a","b"]');
    });
  });

  it("ignores every metatable other than the marker and a sealed view's", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local hidden = { secret = 1 }
local t = setmetatable({ 1, 2 }, { __index = hidden, __len = function() return 9 end, __metatable = 'locked' })
local empty = setmetatable({}, { __index = 5, __metatable = 'x' })
local noLabel = setmetatable({}, { __index = hidden })
return json.encode({ t, empty, noLabel })`,
        ),
      ).toBe("[[1,2],{},{}]");
    });
  });

  it("never changes how values encode when json's fields are reassigned", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local encode, null, list = json.encode, json.null, json.array()
json.null = 'null'
json.array = function(t) return t end
json.encode = nil
local decode = json.decode
json = nil
return encode({ null, list, decode('[]'), decode('{"a":null}') })`,
        ),
      ).toBe('[null,[],[],{"a":null}]');
    });
  });

  it("is a plain table holding six members", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local names = {}
for k, v in pairs(json) do names[#names + 1] = k .. ':' .. type(v) end
table.sort(names)
return tostring(getmetatable(json)) .. ' ' .. table.concat(names, ' ')`,
        ),
      ).toBe(
        "nil array:function decode:function decode_lines:function encode:function encode_lines:function null:userdata",
      );
    });
  });
});

describe("json.encode options", () => {
  it("accepts nil and a table whose only key is debug, holding a boolean", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return json.encode({ 1 }, nil) .. json.encode({ 2 }, {}) .. json.encode({ 3 }, { debug = false })",
        ),
      ).toBe("[1][2][3]");
    });
  });

  it("refuses anything else, options before the value", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.encode, print, json.null")).toBe(
        "lua|json.encode: options must be a table, got lightuserdata",
      );
      expect(await errorOf(vm, "json.encode, {}, false")).toBe(
        "lua|json.encode: options must be a table, got boolean",
      );
      expect(await errorOf(vm, "json.encode, {}, 'debug'")).toBe(
        "lua|json.encode: options must be a table, got string",
      );
      expect(await errorOf(vm, "json.encode, {}, { [1] = true }")).toBe(
        "lua|json.encode: unknown option 1",
      );
      expect(await errorOf(vm, "json.encode, {}, { zz = 1, [2] = 1, debug = 5 }")).toBe(
        "lua|json.encode: unknown option 2",
      );
      expect(await errorOf(vm, "json.encode, {}, { [{}] = 1, [print or error] = 1 }")).toBe(
        "lua|json.encode: unknown option function",
      );
      expect(await errorOf(vm, "json.encode, {}, { debug = 'yes' }")).toBe(
        "lua|json.encode: option debug must be a boolean, got string",
      );
      expect(await errorOf(vm, "json.encode, {}, { debug = 1.5 }")).toBe(
        "lua|json.encode: option debug must be a boolean, got number",
      );
    });
  });
});

describe("json.encode debug mode", () => {
  it("writes a marked list that breaks the key rules as an object, leaving out table keys", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t = json.array({ 'a', x = 1, [2.5] = 2, [false] = 3, [true] = 4 })
t[{}] = 5
return json.encode(t, { debug = true })`,
        ),
      ).toBe('{"1":"a","2.5":2,"false":3,"true":4,"x":1}');
    });
  });

  it("writes invalid UTF-8 in keys with replacement characters, the later key winning", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return json.encode({ ['a\\255'] = 1, ['a\\254'] = 2, b = 'x\\255y' }, { debug = true })",
        ),
      ).toBe('{"a\uFFFD":1,"b":"x\uFFFDy"}');
    });
  });

  it("writes placeholders for unreadable views, cycles and depth", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local sealed = setmetatable({}, { __index = function() end, __metatable = 42 })
local t = { sealed = sealed }
t.list = { t }
return json.encode(t, { debug = true })`,
        ),
      ).toBe('{"list":["[cycle]"],"sealed":"[cannot read]"}');
    });
  });
});
