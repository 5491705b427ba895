import { describe, expect, it } from "vitest";
import { failureOf, resultOf, standInRequire, withGuardedVm } from "./test-support";

// The cases of conformance/lua/02-sandbox.yaml whose prompts need only this area (and plain
// Lua), named as there. Where the case shows a regular expression, the test pins the exact text
// this implementation gives (the position prefix points into runvil/globals.lua).

const CONCAT_AT = "runvil/globals.lua:\\d+: ";

describe("conformance 02-sandbox", () => {
  it("shout returns one library call's result", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "return string.upper('hello')")).toBe("HELLO");
    });
  });

  it("setmetatable and getmetatable on a plain table behave as stock Lua", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t, mt = {}, {}
           return tostring(setmetatable(t, mt) == t) .. ',' .. tostring(getmetatable(t) == mt)`,
        ),
      ).toBe("true,true");
    });
  });

  it("ipairs walks a table literal in order", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local out = {}
           for _, text in ipairs({ 'first question', 'second question' }) do
             out[#out + 1] = text
           end
           return table.concat(out, ',')`,
        ),
      ).toBe("first question,second question");
    });
  });

  it("a kept global can be reassigned", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(vm, "error = function() end\nerror('boom')\nreturn 'no complaint'"),
      ).toBe("no complaint");
    });
  });

  it("types reports the type of several values", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return type('x') .. ',' .. type(1) .. ',' .. type(true) .. ',' .. type({}) .. ',' .. type(type) .. ',' .. type(never_set)",
        ),
      ).toBe("string,number,boolean,table,function,nil");
    });
  });

  it("an integer joins without a decimal point", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "local n = 4\nreturn 'clamped:' .. n")).toBe("clamped:4");
    });
  });

  it("strings uses the string library with method calls", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local s = 'Task id=t7'
           local id = s:match('^Task id=(%S+)')
           local at = s:find('id=', 1, true)
           return id .. '|' .. at .. '|' .. string.sub(s, -2) .. '|' .. string.upper(s) .. '|' .. string.rep('ab', 3)`,
        ),
      ).toBe("t7|6|t7|TASK ID=T7|ababab");
    });
  });

  it("the string metatable indexes the string library", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "return tostring(getmetatable('').__index == string)")).toBe(
        "true",
      );
    });
  });

  it("joined joins strings, numbers, and a value with __tostring", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local point = setmetatable({ x = 1, y = 2 }, {
             __tostring = function(p) return '(' .. p.x .. ',' .. p.y .. ')' end,
           })
           local answers = {}
           answers[#answers + 1] = 'at'
           answers[#answers + 1] = point
           answers[#answers + 1] = 3
           return table.concat(answers, ' ')`,
        ),
      ).toBe("at (1,2) 3");
    });
  });

  it("table.concat defaults to the whole list and an empty separator", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return table.concat({ 'a', 'b', 'c' }) .. '|' .. table.concat({ 'alpha', 'beta' }, ', ')",
        ),
      ).toBe("abc|alpha, beta");
    });
  });

  it("table.concat over an empty range returns an empty string", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return '[' .. table.concat({}) .. '][' .. table.concat({ 'a', 'b' }, ',', 2, 1) .. ']'",
        ),
      ).toBe("[][]");
    });
  });

  it("table.concat converts a table element with __tostring", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local point = setmetatable({ x = 1, y = 2 }, {
             __tostring = function(p) return '(' .. p.x .. ',' .. p.y .. ')' end,
           })
           return table.concat({ 'at', point }, ' ')`,
        ),
      ).toBe("at (1,2)");
    });
  });

  it("table.concat refuses a boolean element", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(table.concat, { 'a', 'b', true })
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toMatch(
        new RegExp(
          `^false\\|${CONCAT_AT}invalid value \\(boolean\\) at index 3 in table for 'concat'$`,
        ),
      );
    });
  });

  it("table.concat with j past the end reports index #list + 1", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(table.concat, { 'a', 'b' }, ',', 1, 3)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toMatch(
        new RegExp(
          `^false\\|${CONCAT_AT}invalid value \\(nil\\) at index 3 in table for 'concat'$`,
        ),
      );
    });
  });

  it("table.concat refuses a function element", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(table.concat, { 'a', function() end })
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toMatch(
        new RegExp(
          `^false\\|${CONCAT_AT}invalid value \\(function\\) at index 2 in table for 'concat'$`,
        ),
      );
    });
  });

  it("table.concat refuses a table without __tostring", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(table.concat, { {} })
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toMatch(
        new RegExp(
          `^false\\|${CONCAT_AT}invalid value \\(table\\) at index 1 in table for 'concat'$`,
        ),
      );
    });
  });

  it("table.concat refuses a table whose metatable is protected", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local sealed = setmetatable({}, {
             __tostring = function() return 'never used' end,
             __metatable = 'sealed',
           })
           local hidden = setmetatable({}, {
             __tostring = function() return 'never used' end,
             __metatable = false,
           })
           local ok1, err1 = pcall(table.concat, { sealed })
           local ok2, err2 = pcall(table.concat, { 'a', hidden })
           return tostring(ok1) .. '|' .. tostring(err1) .. ' / ' .. tostring(ok2) .. '|' .. tostring(err2)`,
        ),
      ).toMatch(
        new RegExp(
          `^false\\|${CONCAT_AT}invalid value \\(table\\) at index 1 in table for 'concat' / false\\|${CONCAT_AT}invalid value \\(table\\) at index 2 in table for 'concat'$`,
        ),
      );
    });
  });

  it("table.concat on a list argument that is not indexable fails", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(vm, "local ok, err = pcall(table.concat, nil)\nreturn tostring(ok), err"),
      ).toBe("false");
      expect(await failureOf(vm, "return table.concat(nil)")).toMatch(
        new RegExp(`^${CONCAT_AT}attempt to get length of a nil value \\(local 'list'\\)$`),
      );
      expect(await failureOf(vm, "return table.concat(nil, ',', 1, 2)")).toMatch(
        new RegExp(`^${CONCAT_AT}attempt to index a nil value \\(local 'list'\\)$`),
      );
    });
  });

  it("an uncaught table.concat error ends the run as Lua", async () => {
    // The run error kind belongs to the Engine; the block's own failure carries the message.
    await withGuardedVm(async (vm) => {
      expect(await failureOf(vm, "return table.concat({ true })")).toMatch(
        new RegExp(`^${CONCAT_AT}invalid value \\(boolean\\) at index 1 in table for 'concat'$`),
      );
    });
  });

  it("no-print shows that print and warn read nil", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "return tostring(print) .. ':' .. tostring(warn)")).toBe("nil:nil");
    });
  });

  it("names outside the toolkit read nil", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local names = {
             tostring(io), tostring(os), tostring(package), tostring(debug),
             tostring(load), tostring(loadfile), tostring(dofile), tostring(collectgarbage),
             tostring(coroutine), tostring(rawequal), tostring(rawget), tostring(rawset),
           }
           return table.concat(names, ',')`,
        ),
      ).toBe("nil,nil,nil,nil,nil,nil,nil,nil,nil,nil,nil,nil");
    });
  });

  it("calling print fails because the name holds nil", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(vm, `local ok = pcall(function() print("hi") end)\nreturn tostring(ok)`),
      ).toBe("false");
      expect(await failureOf(vm, `print("hi")`)).toBe(
        `[string "line 1"]:1: attempt to call a nil value (global 'print')`,
      );
    });
  });

  it("own-require loads sections, not stock Lua libraries (stand-in require)", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal("require", standInRequire({}));
      expect(
        await resultOf(
          vm,
          `local ok = pcall(require, 'os')
           return type(require) .. '|' .. tostring(ok) .. '|' .. tostring(os) .. '|' .. tostring(package)`,
        ),
      ).toBe("function|false|nil|nil");
    });
  });

  it("without the Engine's require, the sandbox has no require at all", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "return tostring(require) .. '|' .. tostring(package)")).toBe(
        "nil|nil",
      );
    });
  });
});
