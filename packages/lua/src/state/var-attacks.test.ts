import { describe, expect, it } from "vitest";
import { runSection } from "./test-support";

/**
 * Prompt code must never reach var's hidden storage (the storage tables behind the views, the
 * guard closures, the private table), change a view's guard, or make the guard run its code.
 */
describe("var's hidden storage cannot be reached", () => {
  it("the sandbox offers no route to metatables, upvalues or the registry", async () => {
    const run = await runSection([
      `var.t = { a = 1 }
       local found = {}
       for _, name in ipairs({ 'rawget', 'rawset', 'rawequal', 'rawlen', 'debug', 'load',
                               'loadstring', 'dofile', 'require', 'coroutine', 'collectgarbage' }) do
         if _G[name] ~= nil then found[#found + 1] = name end
       end
       found[#found + 1] = type(getmetatable(var)) .. ':' .. type(getmetatable(var.t))
       found[#found + 1] = tostring(select('#', ...))
       return table.concat(found, ',')`,
    ]);
    expect(run.result).toBe("string:string,0");
  });

  it("metamethod names read and write ordinary fields, never the guard", async () => {
    const run = await runSection([
      `var.__index = 'a field'
       var.__newindex = 'another'
       var.__metatable = 'third'
       var.__pairs = 'fourth'
       var.after = 1
       local n = 0 for _ in pairs(var) do n = n + 1 end
       return getmetatable(var) .. '|' .. var.__index .. '|' .. n .. '|' .. tostring(next(var))`,
    ]);
    expect(run.result).toBe("var is guarded|a field|0|nil");
    expect(run.var).toEqual({
      __index: "a field",
      __metatable: "third",
      __newindex: "another",
      __pairs: "fourth",
      after: 1n,
    });
  });

  it("the pairs iterator a view hands out yields nothing and holds nothing", async () => {
    const run = await runSection([
      `var.t = { a = 1 }
       local f, s, c = pairs(var.t)
       return tostring(s == var.t) .. '|' .. tostring(c) .. '|' .. select('#', f()) .. '|' .. tostring(f(s, 'a'))`,
    ]);
    expect(run.result).toBe("true|nil|1|nil");
  });

  it("replaced globals and library functions do not reach the guard", async () => {
    const run = await runSection([
      `local seen = {}
       string.find = function(...) seen[#seen + 1] = 'find' return nil end
       table.sort = function(...) seen[#seen + 1] = 'sort' end
       table.concat = function(...) seen[#seen + 1] = 'concat' return '' end
       math.tointeger = function(...) seen[#seen + 1] = 'tointeger' end
       math.type = function(...) seen[#seen + 1] = 'type' end
       type, next, setmetatable, getmetatable = nil, nil, nil, nil
       setmetatable = nil
       local G = _G
       G.setmetatable = nil
       var.s = 'é'
       var.t = { b = 1, a = { 1, 2 }, ['ü'] = true }
       var.t.a[3] = 3.5
       local ok, err = pcall(function() var.t.x = { { f = string.len } } end)
       return #seen .. '|' .. tostring(err)`,
    ]);
    expect(run.result).toBe("0|runtime error: var.t.x[1].f must be JSON data, got function");
    expect(run.var).toEqual({ s: "é", t: { a: [1n, 2n, 3.5], b: 1n, ü: true } });
  });

  it("a _G metatable sees no global lookup from the guard or its table conversion", async () => {
    const run = await runSection([
      `local seen = {}
       setmetatable(_G, {
         __index = function(_, k) seen[#seen + 1] = tostring(k) end,
         __newindex = function(t, k, v) seen[#seen + 1] = tostring(k) end,
       })
       var.list = { { a = 1 }, { b = { 'x' } } }
       var.list[3] = { c = false }
       pcall(function() var.bad = { 1, x = 2 } end)
       return #seen`,
    ]);
    expect(run.result).toBe(0);
    expect(run.var).toEqual({ list: [{ a: 1n }, { b: ["x"] }, { c: false }] });
  });

  it("assigned tables are read raw: their metamethods never run", async () => {
    const run = await runSection([
      `local ran = 0
       local mt = {
         __index = function() ran = ran + 1 return 'from __index' end,
         __newindex = function() ran = ran + 1 end,
         __pairs = function() ran = ran + 1 return next, {}, nil end,
         __len = function() ran = ran + 1 return 99 end,
         __eq = function() ran = ran + 1 return true end,
         __tostring = function() ran = ran + 1 return 'x' end,
       }
       var.x = setmetatable({ a = setmetatable({ 1, 2 }, mt) }, mt)
       return ran .. '|' .. tostring(var.x.b) .. '|' .. var.x.a[2]`,
    ]);
    expect(run.result).toBe("0|nil|2");
    expect(run.var).toEqual({ x: { a: [1n, 2n] } });
  });

  it("a table dressed up as a var view is just a table", async () => {
    const run = await runSection([
      `local fake = setmetatable({}, { __metatable = 'var is guarded' })
       var.x = fake
       var.y = setmetatable({ own = 1 }, { __index = { hidden = 2 }, __metatable = 'var is guarded' })
       return tostring(var.x == fake) .. '|' .. getmetatable(var.x)`,
    ]);
    expect(run.result).toBe("false|var is guarded");
    expect(run.var).toEqual({ x: {}, y: { own: 1n } });
  });

  it("an error value from the guard carries only its message", async () => {
    const run = await runSection([
      `var.t = { a = 1 }
       local ok, err = pcall(function() var.t.f = string.len end)
       local keys = {}
       if type(err) == 'table' then for k in pairs(err) do keys[#keys + 1] = k end end
       table.sort(keys)
       return type(err) .. '|' .. table.concat(keys, ',')`,
    ]);
    expect(["string|", "table|kind,message"]).toContain(run.result);
  });

  it("a write past the memory limit stores nothing and leaves var usable", async () => {
    const run = await runSection(
      [
        `local big = {} for i = 1, 20000 do big[i] = { i } end
         local ok, err = pcall(function() var.big = big end)
         big = nil
         var.after = 'ok'
         return tostring(ok) .. '|' .. tostring(err) .. '|' .. tostring(var.big)`,
      ],
      { vmOptions: { luaMemoryBytes: 2 * 1024 * 1024 } },
    );
    expect(run.result).toBe("false|not enough memory|nil");
    expect(run.var).toEqual({ after: "ok" });
  });

  it("a view kept after its field is replaced no longer reaches var", async () => {
    const run = await runSection([
      `var.t = { a = 1 }
       local old = var.t
       var.t = { a = 2 }
       old.a = 'stale'
       old.b = 'stale'
       return var.t.a .. '|' .. old.a`,
    ]);
    expect(run.result).toBe("2|stale");
    expect(run.var).toEqual({ t: { a: 2n } });
  });
});
