import { describe, expect, it } from "vitest";
import { plain, runSection, setUserdataGlobal } from "./test-support";

describe("keeping state in var (04-var.yaml)", () => {
  it("greeting keeps a value in var and reads it back", async () => {
    const run = await runSection(["var.greeting = 'hi there'\nreturn var.greeting"]);
    expect(run.result).toBe("hi there");
    expect(plain(run.var)).toEqual({ greeting: "hi there" });
  });

  it("var.key or default supplies a starting value", async () => {
    const run = await runSection([
      `var.n = (var.n or 0) + 1
       local first = var.n
       var.n = (var.n or 0) + 1
       return first .. ',' .. var.n`,
    ]);
    expect(run.result).toBe("1,2");
    expect(run.var).toEqual({ n: 2n });
  });

  it("a bracketed string key reaches the same var field as the dotted form", async () => {
    const run = await runSection([
      `local name = 'greeting'
       local was_nil = var[name] == nil
       var[name] = 'hello'
       return tostring(was_nil) .. ' ' .. var.greeting`,
    ]);
    expect(run.result).toBe("true hello");
    expect(run.var).toEqual({ greeting: "hello" });
  });

  it("phases reads a var field set in the prologue from the epilog", async () => {
    const run = await runSection(["var.phase = 'prologue'", "return var.phase .. '-epilog'"]);
    expect(run.result).toBe("prologue-epilog");
    expect(run.var).toEqual({ phase: "prologue" });
  });

  it("var holds JSON data and reads back as JSON", async () => {
    const run = await runSection([
      "var.n = 1\nvar.s = 'x'\nvar.t = { a = { 1, 2 } }\nvar.b = true",
    ]);
    expect(run.failure).toBeUndefined();
    expect(run.var).toEqual({ n: 1n, s: "x", t: { a: [1n, 2n] }, b: true });
  });

  it("an empty plain table in var reads back as an object", async () => {
    const run = await runSection(["var.items = {}"]);
    expect(run.var).toEqual({ items: {} });
  });

  it("nested var tables are built step by step", async () => {
    const run = await runSection(["var.t = {}\nvar.t.kept = 'yes'\nreturn var.t.kept"]);
    expect(run.result).toBe("yes");
    expect(run.var).toEqual({ t: { kept: "yes" } });
  });

  it("assigning a table to var stores a copy", async () => {
    const run = await runSection([
      "local list = { 'one', 'two' }\nvar.list = list\nlist[2] = 'changed'\nreturn var.list[2]",
    ]);
    expect(run.result).toBe("two");
    expect(run.var).toEqual({ list: ["one", "two"] });
  });

  it("writing through var changes the stored value", async () => {
    const run = await runSection([
      "local list = { 'one', 'two' }\nvar.list = list\nvar.list[2] = 'three'\nreturn var.list[2]",
    ]);
    expect(run.result).toBe("three");
    expect(run.var).toEqual({ list: ["one", "three"] });
  });

  it("assigning nil removes a var key", async () => {
    const run = await runSection([
      "var.k = 1\nvar.kept = 'yes'\nvar.k = nil\nreturn tostring(var.k == nil)",
    ]);
    expect(run.result).toBe("true");
    expect(run.var).toEqual({ kept: "yes" });
  });

  it("a table read from var looks empty to # and table.concat", async () => {
    const run = await runSection([
      `var.items = { 'a', 'b', 'c' }
       local out = {}
       for _, v in ipairs(var.items) do
         out[#out + 1] = v
       end
       return table.concat(out) .. ' ' .. #var.items .. ' ' .. table.concat(var.items, '', 1, 3)`,
    ]);
    expect(run.result).toBe("abc 0 abc");
    expect(run.var).toEqual({ items: ["a", "b", "c"] });
  });

  it("pairs and next see var tables as empty", async () => {
    const run = await runSection([
      `var.a = 1
       var.t = { x = 1 }
       local n = 0
       for _ in pairs(var) do n = n + 1 end
       for _ in pairs(var.t) do n = n + 1 end
       return n .. ' ' .. tostring(next(var)) .. ' ' .. tostring(next(var.t))`,
    ]);
    expect(run.result).toBe("0 nil nil");
  });

  it("getmetatable on var and nested var tables returns var is guarded", async () => {
    const run = await runSection([
      "var.t = {}\nreturn getmetatable(var) .. '|' .. getmetatable(var.t)",
    ]);
    expect(run.result).toBe("var is guarded|var is guarded");
  });

  it("setmetatable on var is refused", async () => {
    const run = await runSection([
      `var.t = {}
       local ok, err = pcall(function() setmetatable(var, {}) end)
       local ok2, err2 = pcall(function() setmetatable(var.t, nil) end)
       return tostring(ok) .. '|' .. tostring(err) .. '|' .. tostring(ok2) .. '|' .. tostring(err2)`,
    ]);
    expect(run.result).toMatch(
      /^false\|.*cannot change a protected metatable\|false\|.*cannot change a protected metatable$/,
    );
  });
});

describe("the var guard (04-var.yaml, When a value is not JSON data)", () => {
  it("guarded catches a rejected var write and keeps going", async () => {
    const run = await runSection(
      [
        `local ok, err = pcall(function() var.handler = log end)
       assert(not ok and tostring(err):match('must be JSON data'))
       var.kept = 'yes'
       return var.kept`,
      ],
      { before: (vm) => vm.setGlobal("log", () => undefined) },
    );
    expect(run.result).toBe("yes");
    expect(run.var).toEqual({ kept: "yes" });
  });

  it("the var guard names the path and the rejected type", async () => {
    const run = await runSection([
      "local ok, err = pcall(function() var.handler = print or string.len end)\nreturn tostring(ok) .. '|' .. tostring(err)",
    ]);
    expect(run.result).toBe("false|runtime error: var.handler must be JSON data, got function");
  });

  it("the var guard path is dotted for a nested object field", async () => {
    const run = await runSection([
      "var.t = {}\nlocal ok, err = pcall(function() var.t.f = function() end end)\nreturn tostring(ok) .. '|' .. tostring(err)",
    ]);
    expect(run.result).toBe("false|runtime error: var.t.f must be JSON data, got function");
  });

  it("the var guard path is bracketed for a list element", async () => {
    const run = await runSection([
      "var.list = { 'a', 'b' }\nlocal ok, err = pcall(function() var.list[2] = function() end end)\nreturn tostring(ok) .. '|' .. tostring(err)",
    ]);
    expect(run.result).toBe("false|runtime error: var.list[2] must be JSON data, got function");
  });

  it("the var guard refuses userdata such as the messages list", async () => {
    const run = await runSection(
      [
        `local ok, err = pcall(function() var.m = messages end)
         local ok2, err2 = pcall(function() var.t = { list = { 1, messages } } end)
         return tostring(ok) .. '|' .. tostring(err) .. '|' .. tostring(err2)`,
      ],
      { before: (vm) => setUserdataGlobal(vm, "messages") },
    );
    expect(run.result).toBe(
      "false|runtime error: var.m must be JSON data, got userdata|runtime error: var.t.list[2] must be JSON data, got userdata",
    );
  });

  it("the var guard checks an assigned table deeply", async () => {
    const run = await runSection([
      "local ok, err = pcall(function() var.cfg = { f = function() end } end)\nreturn tostring(ok) .. '|' .. tostring(err)",
    ]);
    expect(run.result).toBe("false|runtime error: var.cfg.f must be JSON data, got function");
    expect(run.var).toEqual({});
  });

  it("a table shared at many levels is too large to store in var", async () => {
    const run = await runSection([
      `local t = {} for i = 1, 40 do t = { t, t } end
       local ok, err = pcall(function() var.x = t end)
       var.kept = 'yes'
       return tostring(ok) .. '|' .. tostring(err)`,
    ]);
    expect(run.result).toBe("false|runtime error: var.x is too large to store");
    expect(run.var).toEqual({ kept: "yes" });
  });

  it("a rejected nested write stores nothing", async () => {
    const run = await runSection([
      `var.t = {}
       var.t.kept = 'yes'
       local ok = pcall(function() var.t.f = function() end end)
       return tostring(ok)`,
    ]);
    expect(run.result).toBe("false");
    expect(run.var).toEqual({ t: { kept: "yes" } });
  });

  it("an uncaught non-JSON var write ends the block at the assigning line", async () => {
    const run = await runSection(["var.f = function() end\nreturn 'unreached'"]);
    expect(run.failure).toBe("runtime error: var.f must be JSON data, got function");
    expect(run.outcomes[0]?.ok === false && run.outcomes[0].traceback).toContain(
      '[string "line 1"]:1: in main chunk',
    );
  });
});

describe("the var guard's other refusals (decided, json.encode's wording)", () => {
  const refusal = async (setupAndWrite: string): Promise<unknown> => {
    const run = await runSection([
      `${setupAndWrite.includes("\n") ? "" : ""}local ok, err = pcall(function() ${setupAndWrite} end)
       return tostring(ok) .. '|' .. tostring(err)`,
    ]);
    return run.result;
  };

  it.each([
    ["var[1] = 'x'", "var fields must be set by string key"],
    ["var[true] = 'x'", "var fields must be set by string key"],
    ["var.s = '\\255'", "var.s is not valid UTF-8"],
    ["var['caf\\233'] = 1", "var.caf\uFFFD is a key that is not valid UTF-8"],
    ["var.n = 0/0", "var.n must be a finite number, got NaN"],
    ["var.n = math.huge", "var.n must be a finite number, got Infinity"],
    ["var.t = { x = { -math.huge } }", "var.t.x[1] must be a finite number, got -Infinity"],
    ["var.l = { 'a' } var.l.x = 1", "var.l mixes list items and named keys"],
    ["var.o = { a = 1 } var.o[1] = 'x'", "var.o mixes list items and named keys"],
    ["var.l = { 'a', 'b' } var.l[4] = 'x'", "var.l is missing list item [3]"],
    ["var.l = { 'a', 'b' } var.l[0] = 'x'", "var.l is missing list item [3]"],
    ["var.l = { 'a', 'b', 'c' } var.l[2] = nil", "var.l is missing list item [2]"],
    ["var.t = {} var.t[true] = 1", "var.t has a boolean key"],
    ["var.t = {} var.t[1.5] = 1", "var.t has a number key"],
    ["var.t = {} var.t[{}] = 1", "var.t has a table key"],
    ["var.t = { [1] = 'a', [3] = 'c' }", "var.t is missing list item [2]"],
    ["var.t = { [0] = 'a' }", "var.t is missing list item [1]"],
    ["var.t = { [-1] = 'a', [1] = 'b' }", "var.t is missing list item [2]"],
    ["var.t = { [1] = function() end, a = 1 }", "var.t mixes list items and named keys"],
    ["var.t = { [{}] = 1, [print or string.len] = 2 }", "var.t has a function key"],
    ["var.t = { [{}] = 1, [2.5] = 2, [true] = 3 }", "var.t has a boolean key"],
    ["var.t = { a = { [1.5] = 1 } }", "var.t.a has a number key"],
    ["var.t = { b = string.len, a = string.len }", "var.t.a must be JSON data, got function"],
    ["var.t = { 'x', { ['\\255'] = 1 } }", "var.t[2].\uFFFD is a key that is not valid UTF-8"],
    ["local t = {} t.self = t var.x = t", "var.x.self contains itself"],
    ["local t = { 1 } var.x = { a = { b = { t, { t } } }, c = t }", "true|nil"],
    ["local a = {} local b = { a } a[1] = b var.x = { a }", "var.x[1][1][1] contains itself"],
  ])("%s", async (code, expected) => {
    const result = await refusal(code);
    expect(result).toBe(expected === "true|nil" ? expected : `false|runtime error: ${expected}`);
  });

  it("a removed last item, an appended item and an integral float key pass", async () => {
    const run = await runSection([
      `var.l = { 'a', 'b', 'c' }
       var.l[3] = nil
       var.l[3] = 'C'
       var.l[4.0] = 'D'
       var.l[9] = nil
       var.o = { a = 1 }
       var.o.zz = nil
       var.o[7] = nil
       return #var.l`,
    ]);
    expect(run.result).toBe(0);
    expect(run.var).toEqual({ l: ["a", "b", "C", "D"], o: { a: 1n } });
  });

  it("a value nested 127 levels stores at var.x (var adds no level); one more is refused with its path", async () => {
    const nest = (levels: number) => `local t = 'leaf' for i = 1, ${levels} do t = { t } end`;
    const ok = await runSection([`${nest(127)} var.x = t return 'stored'`]);
    expect(ok.result).toBe("stored");
    const deep = await runSection([
      `${nest(128)} local ok, err = pcall(function() var.x = t end) return tostring(err)`,
    ]);
    expect(deep.result).toBe(
      `runtime error: var.x${"[1]".repeat(127)} is nested more than 127 levels deep`,
    );
    const nested = await runSection([
      `var.a = { b = {} } ${nest(126)} local ok, err = pcall(function() var.a.b.c = t end) return tostring(err)`,
    ]);
    expect(nested.result).toBe(
      `runtime error: var.a.b.c${"[1]".repeat(125)} is nested more than 127 levels deep`,
    );
  });

  it("the budgets follow the VM's memory limit: values, then string bytes", async () => {
    // 4 MiB of Lua memory: at most 524,288 values and 4,194,304 string bytes per write. A list
    // of 1,000 items shared k times counts 1 + 1,001 k values.
    const vmOptions = { luaMemoryBytes: 4 * 1024 * 1024 };
    const values = await runSection(
      [
        `local inner = {} for i = 1, 1000 do inner[i] = true end
         local function outer(k) local t = {} for i = 1, k do t[i] = inner end return t end
         var.ok = outer(100)
         local ok, err = pcall(function() var.big = outer(524) end)
         return tostring(err)`,
      ],
      { vmOptions },
    );
    expect(values.result).toBe("runtime error: var.big is too large to store");
    const bytes = await runSection(
      [
        `local s = string.rep('x', 1000000)
         local ok1 = pcall(function() var.a = { s, s, s, s } end)
         local ok2, err = pcall(function() var.b = { s, s, s, s, s } end)
         local ok3, err3 = pcall(function() var.c = { s, s, s, [s] = 1 } end)
         return tostring(ok1) .. '|' .. tostring(err) .. '|' .. tostring(err3)`,
      ],
      { vmOptions },
    );
    expect(bytes.result).toBe(
      "true|runtime error: var.b is too large to store|runtime error: var.c mixes list items and named keys",
    );
  });
});
