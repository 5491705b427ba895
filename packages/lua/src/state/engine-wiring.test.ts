import { describe, expect, it } from "vitest";
import { installErrors } from "../errors/install-errors";
import { uncaughtError } from "../errors/uncaught-error";
import { loadLuaVmFactory } from "../vm/factory";
import type { BlockFailure } from "../vm/outcome";
import { installLog } from "./log";
import { installSys } from "./sys";
import { plain, runSection } from "./test-support";

/**
 * The cases of 04-var.yaml, 06-sys-and-ui.yaml and 08-logging.yaml that also need the json
 * global (json.encode, json.array, json.null) or error values (err.kind, run error kinds):
 * this area's installers wired with the errors and json areas' ones, as the Engine does.
 */

const locate = (firstLine: number) => (firstLine === 1 ? "section `Main` prologue" : undefined);

const SYS_FACTS = {
  sectionName: "Only",
  sectionCount: 1,
  execution: "run-1",
  when: 0,
  id: "0.1",
  taskId: "0",
};

describe("var with json and error values (04-var.yaml)", () => {
  it("a prompt without H1 blocks starts its walk with an empty var", async () => {
    const run = await runSection(["return json.encode(var)"], { engine: true });
    expect(run.result).toBe("{}");
  });

  it("an empty marked list in var reads back as an array", async () => {
    const run = await runSection(["var.items = json.array()"], { engine: true });
    expect(run.var).toEqual({ items: [] });
  });

  it("json.null stored in var reads back as null", async () => {
    const run = await runSection(["var.x = json.null\nreturn tostring(var.x == json.null)"], {
      engine: true,
    });
    expect(run.result).toBe("true");
    expect(run.var).toEqual({ x: null });
  });

  it("json.encode reads through var tables", async () => {
    const run = await runSection(
      ["var.items = { 'a', 'b', 'c' }\nreturn json.encode(var.items) .. ' ' .. json.encode(var)"],
      { engine: true },
    );
    expect(run.result).toBe('["a","b","c"] {"items":["a","b","c"]}');
  });

  it("encode-var: json.encode reads nested var tables and floats come out as integers", async () => {
    const run = await runSection(
      [
        `var.cfg = { mode = 'fast', sizes = { 2.0, 1.5 } }
         var.empty = json.array()
         return json.encode(var) .. ' ' .. #var.cfg.sizes .. ' ' .. json.encode(var.cfg.sizes)`,
      ],
      { engine: true },
    );
    expect(run.result).toBe('{"cfg":{"mode":"fast","sizes":[2,1.5]},"empty":[]} 0 [2,1.5]');
    expect(run.var).toEqual({ cfg: { mode: "fast", sizes: [2, 1.5] }, empty: [] });
  });

  it("guarded catches a rejected var write as a lua error value and keeps going", async () => {
    const run = await runSection(
      [
        `local ok, err = pcall(function() var.handler = log end)
         assert(not ok and tostring(err):match('must be JSON data'))
         var.kept = 'yes'
         return var.kept .. ' ' .. err.kind .. '|' .. err.message`,
      ],
      { engine: true, before: (vm) => installLog(vm, { section: "Main" }) },
    );
    expect(run.result).toBe("yes lua|runtime error: var.handler must be JSON data, got function");
    expect(run.var).toEqual({ kept: "yes" });
  });

  it("an uncaught non-JSON var write fails the run as Lua", async () => {
    const run = await runSection(["var.f = function() end\nreturn 'unreached'"], {
      engine: true,
    });
    const failure = uncaughtError(run.outcomes[0] as BlockFailure, locate);
    expect(failure.error.kind).toBe("lua");
    expect(failure.message).toContain("var.f must be JSON data, got function");
    expect(failure.message.split("\n")[0]).toMatch(
      /^section `Main` prologue:1: .*var\.f must be JSON data, got function$/,
    );
  });

  it("json lists, nulls and var views assigned to var keep their shape and are copied", async () => {
    const run = await runSection(
      [
        `var.decoded = json.decode('{"list":[],"items":[1,null,3],"o":{}}')
         var.t = { a = { 1 } }
         var.copy = var.t
         var.copy.a[2] = 2
         var.nulls = { json.null, 1 }
         local ok, err = pcall(function() var.decoded.items.name = 1 end)
         local ok2, err2 = pcall(function() var.t[json.null] = 1 end)
         local ok3, err3 = pcall(json.array, var.t)
         return table.concat({ tostring(var.nulls[1] == json.null), tostring(err), tostring(err2),
           tostring(err3), json.encode(var.decoded) }, '|')`,
      ],
      { engine: true },
    );
    expect(run.result).toBe(
      [
        "true",
        "runtime error: var.decoded.items has a string key",
        "runtime error: var.t has a lightuserdata key",
        "json.array: the table already has a metatable",
        '{"items":[1,null,3],"list":[],"o":{}}',
      ].join("|"),
    );
    expect(plain(run.var)).toEqual({
      copy: { a: ["1n", "2n"] },
      decoded: { items: ["1n", null, "3n"], list: [], o: {} },
      nulls: [null, "1n"],
      t: { a: ["1n"] },
    });
  });

  it("a view that cannot be read, such as sys, is refused with json.encode's wording", async () => {
    const run = await runSection(
      [
        `local ok, err = pcall(function() var.s = sys end)
         local ok2, err2 = pcall(function() var.t = { inner = { sys } } end)
         return tostring(err) .. '|' .. tostring(err2) .. '|' .. select(2, pcall(json.encode, sys))`,
      ],
      { engine: true, before: (vm) => installSys(vm, SYS_FACTS) },
    );
    expect(run.result).toBe(
      [
        "runtime error: var.s cannot be read (sys is sealed); copy the fields you need into a plain table",
        "runtime error: var.t.inner[1] cannot be read (sys is sealed); copy the fields you need into a plain table",
        "json.encode: value cannot be read (sys is sealed); copy the fields you need into a plain table",
      ].join("|"),
    );
  });

  it("reads a sealed view by the chapter's rule (no own entries, __index table, __metatable)", async () => {
    const run = await runSection(
      [
        `local data = { a = 1 }
         local view = setmetatable({}, { __index = data, __metatable = 'frozen' })
         local fn = setmetatable({}, { __index = function() end, __metatable = 'sealed fn' })
         local other = setmetatable({ own = true }, { __index = data, __metatable = 'x' })
         var.v = view
         var.o = other
         local ok, err = pcall(function() var.f = fn end)
         return tostring(err)`,
      ],
      { engine: true },
    );
    expect(run.result).toBe(
      "runtime error: var.f cannot be read (sealed fn); copy the fields you need into a plain table",
    );
    expect(run.var).toEqual({ v: { a: 1n }, o: { own: true } });
  });
});

describe("sys and log with error values (06-sys-and-ui.yaml, 08-logging.yaml)", () => {
  async function runWith(
    source: string,
    install: (vm: import("../vm/lua-vm").LuaVm) => void,
  ): Promise<{ value: unknown; failure?: BlockFailure }> {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      installErrors(vm);
      install(vm);
      const outcome = await vm.runBlock({ source, chunkName: "line 1" });
      return outcome.ok ? { value: outcome.values[0] } : { value: undefined, failure: outcome };
    } finally {
      vm.close();
    }
  }

  it("a caught unknown sys field error is a lua error value reading runtime error", async () => {
    const { value } = await runWith(
      `local ok, id = pcall(function() return sys.model end)
       local ok2, err = pcall(function() return sys.nothing end)
       return id.kind .. '|' .. tostring(id) .. '|' .. type(err) .. '|' .. err.kind .. '|' .. tostring(err)`,
      (vm) => installSys(vm, SYS_FACTS),
    );
    expect(value).toBe(
      "lua|runtime error: unknown sys field 'model'|table|lua|runtime error: unknown sys field 'nothing'",
    );
  });

  it("assigning a new sys field is refused as a lua error value", async () => {
    const { value } = await runWith(
      "local ok, err = pcall(function() sys.extra = 1 end) return err.kind .. '|' .. tostring(err)",
      (vm) => installSys(vm, SYS_FACTS),
    );
    expect(value).toBe("lua|runtime error: sys is read-only; cannot set 'extra'");
  });

  it("an uncaught unknown sys field ends the run as Lua", async () => {
    const { failure } = await runWith("return sys.nothing", (vm) => installSys(vm, SYS_FACTS));
    const ended = uncaughtError(failure as BlockFailure, locate);
    expect(ended.error.kind).toBe("lua");
    expect(ended.message).toContain("unknown sys field 'nothing'");
  });

  it("with a quota of one event the second log call fails with a lua error value", async () => {
    const { value } = await runWith(
      "log('one') local ok, err = pcall(log, 'two') return err.kind .. '|' .. tostring(err)",
      (vm) => installLog(vm, { section: "Main", quotas: { events: 1 } }),
    );
    expect(value).toBe("lua|lua log event budget exceeded");
  });

  it("pcall catches a byte quota refusal as a lua error value", async () => {
    const { value } = await runWith(
      `log(string.rep('é', 200))
       log(string.rep('é', 200))
       local ok, err = pcall(log, string.rep('é', 200))
       return err.kind .. '|' .. tostring(err)`,
      (vm) => installLog(vm, { section: "Main", quotas: { events: 4 } }),
    );
    expect(value).toBe("lua|lua log cumulative byte budget exceeded");
  });

  it("uncaught quota refusals keep their quota mark, a raised copy of the text has none", async () => {
    const install = (vm: import("../vm/lua-vm").LuaVm) =>
      installLog(vm, { section: "Main", quotas: { events: 1 } });
    const events = await runWith("log('one')\nlog('two')\nreturn 'unreached'", install);
    const ended = uncaughtError(events.failure as BlockFailure, locate);
    expect([ended.error.quota, ended.message]).toEqual([true, "lua log event budget exceeded"]);
    const bytes = await runWith(
      "log(string.rep('é', 200)) log(string.rep('é', 200)) log(string.rep('é', 200))",
      (vm) => installLog(vm, { section: "Main", quotas: { events: 4 } }),
    );
    expect(uncaughtError(bytes.failure as BlockFailure, locate).error.quota).toBe(true);
    const rethrown = await runWith(
      "log('one') local ok, err = pcall(log, 'two') error(err)",
      install,
    );
    expect(uncaughtError(rethrown.failure as BlockFailure, locate).error.quota).toBe(true);
    const fake = await runWith("error('lua log event budget exceeded')", install);
    const faked = uncaughtError(fake.failure as BlockFailure, locate);
    expect([faked.error.kind, faked.error.quota]).toEqual(["lua", false]);
    expect(faked.message).toContain("lua log event budget exceeded");
  });

  it("log argument errors are lua error values too", async () => {
    const { value } = await runWith(
      "local ok, err = pcall(log) return err.kind .. '|' .. tostring(err)",
      (vm) => installLog(vm, { section: "Main" }),
    );
    expect(value).toBe("lua|log expects exactly one argument");
  });
});
