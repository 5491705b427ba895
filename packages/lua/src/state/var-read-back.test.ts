import { describe, expect, it } from "vitest";
import { EngineError } from "../engine-error";
import type { JsonObject } from "../json/value";
import { loadLuaVmFactory } from "../vm/factory";
import { runSection, runValue } from "./test-support";
import { installVar } from "./var";
import { readBackVar } from "./var-read-back";

/** `object` with an own `__proto__` member (an object literal would set the prototype). */
function withProto(object: JsonObject, value: string): JsonObject {
  Object.defineProperty(object, "__proto__", { value, enumerable: true, writable: true });
  return object;
}

const REASSIGNED = "the `var` global was reassigned; write `var.<field>` instead";

describe("var handed from section to section (04-var.yaml, at the API level)", () => {
  it("trail passes a value to the next section through var; plain globals stay behind", async () => {
    const first = await runSection(["note = 'kept only here'\nvar.trail = 'ab'"]);
    expect(first.var).toEqual({ trail: "ab" });
    const second = await runSection(["assert(note == nil)\nreturn var.trail .. 'c'"], {
      initial: first.var as JsonObject,
    });
    expect(second.result).toBe("abc");
    expect(second.var).toEqual({ trail: "ab" });
  });

  it("executions counts in two H1 blocks and reads the count in a section", async () => {
    const h1 = await runSection([
      "var.executions = (var.executions or 0) + 1",
      "var.executions = var.executions + 1",
    ]);
    expect(h1.var).toEqual({ executions: 2n });
    const result = await runSection(["return 'count:' .. var.executions"], {
      initial: h1.var as JsonObject,
    });
    expect(result.result).toBe("count:2");
    expect(result.var).toEqual({ executions: 2n });
  });

  it("a prompt without H1 blocks starts its walk with an empty var", async () => {
    const run = await runSection(["local n = 0 for _ in pairs(var) do n = n + 1 end return n"]);
    expect([run.result, run.var]).toEqual([0, {}]);
  });

  it("keeps integers, floats, strings, booleans, lists, objects and keys through a hand-off", async () => {
    const first = await runSection([
      `var.i = 3
       var.f = 2.0
       var.g = 0.1
       var.big = math.maxinteger
       var.neg = -0.0
       var.s = 'é\\0x'
       var.b = false
       var.list = { 1, 'two', { three = 3 } }
       var.obj = { z = 1, a = { }, ['__proto__'] = 'p', [''] = 'empty key' }`,
    ]);
    const data = first.var as JsonObject;
    expect(data).toEqual({
      i: 3n,
      f: 2,
      g: 0.1,
      big: 9223372036854775807n,
      neg: -0,
      s: "é\0x",
      b: false,
      list: [1n, "two", { three: 3n }],
      obj: withProto({ "": "empty key", a: {}, z: 1n }, "p"),
    });
    expect(Object.keys(data.obj as JsonObject)).toEqual(["", "__proto__", "a", "z"]);
    const second = await runSection(
      [
        `return table.concat({
           math.type(var.i), math.type(var.f), tostring(var.f), tostring(var.g == 0.1),
           tostring(var.big == math.maxinteger), tostring(1 / var.neg), tostring(#var.s),
           tostring(var.b), var.list[2], tostring(var.list[3].three), var.obj.__proto__,
           var.obj[''], getmetatable(var.list), getmetatable(var.obj.a),
         }, ',')`,
      ],
      { initial: data },
    );
    expect(second.result).toBe(
      "integer,float,2.0,true,true,-inf,4,false,two,3,p,empty key,var is guarded,var is guarded",
    );
    expect(second.var).toEqual(data);
  });

  it("an initial array stays a list (and an empty one reads back as [])", async () => {
    const run = await runSection(
      [
        `local ok, err = pcall(function() var.items.name = 'x' end)
         var.items[1] = nil
         return tostring(err)`,
      ],
      { initial: { items: ["only"], empty: [], nested: { deep: [[]] } } },
    );
    expect(run.result).toBe("runtime error: var.items has a string key");
    expect(run.var).toEqual({ items: [], empty: [], nested: { deep: [[]] } });
  });

  it("initial views carry their full paths into refusals", async () => {
    const run = await runSection(
      ["local ok, err = pcall(function() var.a.list[2].x = string.len end) return tostring(err)"],
      { initial: { a: { list: [1n, {}] } } },
    );
    expect(run.result).toBe("runtime error: var.a.list[2].x must be JSON data, got function");
  });
});

describe("when the run reads var back", () => {
  it("reassigning the var global fails the read-back with the chapter's Lua error", async () => {
    const run = await runSection(["var = { a = 1 }\nreturn 'done'"]);
    expect(run.result).toBe("done");
    expect(run.var).toBe(REASSIGNED);
  });

  it("the read-back error is a lua-kind EngineError", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      installVar(vm);
      await runValue(vm, "var = nil");
      let caught: unknown;
      try {
        readBackVar(vm);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(EngineError);
      expect([(caught as EngineError).kind, (caught as EngineError).message]).toEqual([
        "lua",
        REASSIGNED,
      ]);
    } finally {
      vm.close();
    }
  });

  it("putting the original var back is not a reassignment", async () => {
    const run = await runSection(["local v = var var = 1 var = v var.ok = true", "_G.var = var"]);
    expect(run.var).toEqual({ ok: true });
  });

  it("reads back between blocks and from inside a host function while a block waits", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    const copies: unknown[] = [];
    try {
      installVar(vm);
      vm.setGlobal("call", (c) => {
        copies.push(readBackVar(c.vm));
        return Promise.resolve().then(() => {
          copies.push(readBackVar(c.vm));
          return [];
        });
      });
      await runValue(vm, "var.step = 1");
      copies.push(readBackVar(vm));
      await runValue(vm, "var.step = 2 call() var.step = 3");
      copies.push(readBackVar(vm));
    } finally {
      vm.close();
    }
    expect(copies).toEqual([{ step: 1n }, { step: 2n }, { step: 2n }, { step: 3n }]);
  });

  it("refuses a VM without var, and initial data that is not JSON data", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      expect(() => readBackVar(vm)).toThrow("readBackVar: installVar has not run on this LuaVm");
      expect(() => installVar(vm, { initial: { x: Number.POSITIVE_INFINITY } })).toThrow(
        "Infinity is not JSON data",
      );
    } finally {
      vm.close();
    }
  });
});
