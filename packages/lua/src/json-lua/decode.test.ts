import { describe, expect, it } from "vitest";
import { errorOf, resultOf, withJsonVm } from "./test-support";

describe("json.decode", () => {
  it("decodes integers in the 64-bit range exactly and every other number as a float", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local v = json.decode('[9223372036854775807,-9223372036854775808,-0,1.0,1e2,9007199254740993,-9223372036854775809]')
local out = {}
for i, x in ipairs(v) do out[i] = math.type(x) .. ':' .. string.format(math.type(x) == 'integer' and '%d' or '%.17g', x) end
return table.concat(out, ' ')`,
        ),
      ).toBe(
        "integer:9223372036854775807 integer:-9223372036854775808 integer:0 float:1 float:100 integer:9007199254740993 float:-9.2233720368547758e+18",
      );
    });
  });

  it("decodes strings with escapes, multi-byte text and NUL into Lua strings", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local v = json.decode('["a\\\\"b", "caf\\\\u00e9", "日本", "x\\\\u0000y", "\\\\ud83c\\\\udf0a", "\\\\n\\\\t\\\\/"]')
return #v[1] .. ' ' .. v[1] .. ' ' .. v[2] .. ' ' .. v[3] .. ' ' .. #v[4] .. ' ' .. #v[5] .. ' ' .. (v[6] == '\\n\\t/' and 'ok' or 'bad')`,
        ),
      ).toBe('3 a"b café 日本 3 4 ok');
    });
  });

  it("decodes keys with escapes, keeps the last of duplicate keys, and long strings", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local long = string.rep('ab', 50000)
local v = json.decode('{"k\\\\u0065y":1,"a":1,"a":2,"long":"' .. long .. '","esc":"' .. long .. '\\\\n"}')
return v.key .. ' ' .. v.a .. ' ' .. tostring(v.long == long) .. ' ' .. tostring(v.esc == long .. '\\n')`,
        ),
      ).toBe("1 2 true true");
    });
  });

  it("decodes top-level scalars and null to json.null", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `return json.decode(' "x" ') .. tostring(json.decode('true')) .. tostring(json.decode('false')) .. tostring(json.decode('null') == json.null) .. json.decode('12')`,
        ),
      ).toBe("xtruefalsetrue12");
    });
  });

  it("marks every decoded array, nested ones included, and leaves objects unmarked", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local v = json.decode('{"a":[[],{}],"o":{}}')
return tostring(getmetatable(v)) .. ' ' .. tostring(getmetatable(v.a)) .. ' ' .. tostring(getmetatable(v.a[1])) .. ' ' .. tostring(getmetatable(v.a[2])) .. ' ' .. tostring(json.array(v.o) == v.o) .. ' ' .. json.encode(v)`,
        ),
      ).toBe('nil false false nil true {"a":[[],{}],"o":[]}');
    });
  });

  it("checks its argument before anything else, with the Engine's type names", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.decode")).toBe("lua|json.decode expects a string, got nil");
      expect(await errorOf(vm, "json.decode, {}")).toBe(
        "lua|json.decode expects a string, got table",
      );
      expect(await errorOf(vm, "json.decode, json.null")).toBe(
        "lua|json.decode expects a string, got lightuserdata",
      );
      expect(await errorOf(vm, "json.decode, true")).toBe(
        "lua|json.decode expects a string, got boolean",
      );
      expect(await errorOf(vm, "json.decode_lines, print")).toBe(
        "lua|json.decode_lines expects a string, got nil",
      );
    });
  });

  it("reports the parser's reason and position", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.decode, ''")).toBe(
        "lua|json.decode: EOF while parsing a value at line 1 column 0",
      );
      expect(await errorOf(vm, `json.decode, '{"a":1,}'`)).toBe(
        "lua|json.decode: trailing comma at line 1 column 8",
      );
      expect(await errorOf(vm, `json.decode, '["\\255"]'`)).toBe(
        "lua|json.decode: invalid unicode code point at line 1 column 4",
      );
      expect(await errorOf(vm, "json.decode, '[1e400]'")).toBe(
        "lua|json.decode: number out of range at line 1 column 6",
      );
    });
  });

  it("lets a Lua memory error raised while building the value pass through unchanged", async () => {
    await withJsonVm(
      async (vm) => {
        expect(
          await resultOf(
            vm,
            `local text = '[' .. string.rep('{"a":[1,2,3]},', 20000) .. '{}]'
local ok, err = pcall(json.decode, text)
return tostring(ok) .. '|' .. tostring(err)`,
          ),
        ).toBe("false|not enough memory");
        // The VM stays usable afterwards.
        expect(await resultOf(vm, "return json.encode(json.decode('[1]'))")).toBe("[1]");
      },
      { luaMemoryBytes: 2 * 1024 * 1024 },
    );
  });
});

describe("json.decode_lines", () => {
  it("returns a marked list of every value in the text", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local rows = json.decode_lines('{"n":1}\\n[]\\n"s" null\\n')
return #rows .. ' ' .. tostring(getmetatable(rows)) .. ' ' .. tostring(rows[4] == json.null) .. ' ' .. json.encode(rows) .. ' ' .. json.encode(json.decode_lines(''))`,
        ),
      ).toBe('4 false true [{"n":1},[],"s",null] []');
    });
  });

  it("limits the nesting of each value, not of the list around them", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local deep = string.rep('[', 127) .. string.rep(']', 127)
local ok1 = pcall(json.decode_lines, deep .. '\\n' .. deep)
local ok2, err2 = pcall(json.decode_lines, '1\\n' .. string.rep('[', 128) .. string.rep(']', 128))
return tostring(ok1) .. '|' .. tostring(err2)`,
        ),
      ).toBe("true|json.decode_lines: recursion limit exceeded at line 2 column 128");
    });
  });
});
