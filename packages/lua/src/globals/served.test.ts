import { describe, expect, it } from "vitest";
import { argumentError } from "../engine-error";
import type { HostFunction, LuaValue } from "../vm/values";
import { GLOBAL_GUARD_PRIVATE_KEY } from "./install";
import { failureOf, privileged, resultOf, valuesAt, withGuardedVm } from "./test-support";

/** An argv stand-in: writable while `h1` says so, frozen with the chapter's refusal otherwise. */
function argvStandIn(h1: () => boolean): { read: HostFunction; assign: HostFunction } {
  let value: LuaValue = { topic: "lua" };
  return {
    read: () => [value],
    assign: (call) => {
      if (!h1()) throw argumentError("argv is frozen outside H1: assign it in H1 only");
      value = call.value(2);
    },
  };
}

describe("names the Engine guard serves", () => {
  it("reads a served name through its handler, and a raw read gives nil", async () => {
    await withGuardedVm(async (vm, guard) => {
      guard.serve("prose", { read: (call) => [`pending prose for ${call.text(1)}`] });
      expect(await valuesAt(vm, "return prose, _G.prose, _G['prose']")).toEqual([
        "pending prose for prose",
        "pending prose for prose",
        "pending prose for prose",
      ]);
      expect(vm.getGlobal("prose")).toBeNull();
      expect(privileged(vm, "local P = ... return P.rawget(_G, 'prose')")).toEqual([null]);
      expect(
        await resultOf(
          vm,
          "for k in next, _G do if k == 'prose' then return 'listed' end end return 'absent'",
        ),
      ).toBe("absent");
      expect(guard.isServed("prose")).toBe(true);
      expect(guard.isServed("args")).toBe(false);
    });
  });

  it("removes a raw global of the same name when it starts serving it", async () => {
    await withGuardedVm(async (vm, guard) => {
      vm.setGlobal("argv", "raw");
      guard.serve("argv", { read: () => ["served"] });
      expect(vm.getGlobal("argv")).toBeNull();
      expect(await resultOf(vm, "return argv")).toBe("served");
    });
  });

  it("refuses an assignment with `{name} is read-only` when no assign handler is given", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(await failureOf(vm, "messages = {}")).toBe("messages is read-only");
        expect(await failureOf(vm, "_G.prose = 'x'")).toBe("prose is read-only");
        expect(
          await resultOf(
            vm,
            "local ok, err = pcall(function() prose = 1 end) return tostring(err)",
          ),
        ).toBe("prose is read-only");
      },
      { served: { messages: { read: () => [[]] }, prose: { read: () => ["Hi."] } } },
    );
  });

  it("lets the assign handler store or refuse (argv in and outside the H1 pass)", async () => {
    let h1 = true;
    await withGuardedVm(
      async (vm) => {
        expect(await resultOf(vm, "argv = { topic = 'repaired' }\nreturn argv.topic")).toBe(
          "repaired",
        );
        h1 = false;
        expect(
          await resultOf(
            vm,
            "local ok, err = pcall(function() argv = {} end)\nreturn tostring(ok) .. '|' .. tostring(err) .. '|' .. argv.topic",
          ),
        ).toBe("false|argv is frozen outside H1: assign it in H1 only|repaired");
      },
      { served: { argv: argvStandIn(() => h1) } },
    );
  });

  it("never lets an author metatable see a served name, whatever it sets, clears or changes", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(
          await valuesAt(
            vm,
            `local seen = {}
             setmetatable(_G, {
               __index = function(_, k) seen[#seen + 1] = 'read ' .. k return 'author' end,
               __newindex = function(_, k) seen[#seen + 1] = 'write ' .. k end,
             })
             local a = argv.topic
             argv = { topic = 'h1' }
             local p = prose
             getmetatable(_G).__index = function() return 'changed' end
             local b = argv.topic
             setmetatable(_G, nil)
             local c = prose
             return a, b, p, c, #seen, other_name`,
          ),
        ).toEqual(["lua", "h1", "Hi.", "Hi.", 0, null]);
      },
      { served: { argv: argvStandIn(() => true), prose: { read: () => ["Hi."] } } },
    );
  });

  it("stays served and refused through every setmetatable(_G, ...) and metatable edit", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(
          await valuesAt(
            vm,
            `local refused = 0
             local function try() if not pcall(function() messages = {} end) then refused = refused + 1 end end
             setmetatable(_G, {}) try()
             setmetatable(_G, { __newindex = function() end, __index = function() return 'x' end }) try()
             getmetatable(_G).__newindex = nil try()
             getmetatable(_G).__index = nil try()
             setmetatable(_G, nil) try()
             setmetatable(_G, { __metatable = 'lock' }) try()
             return refused, type(messages), prose`,
          ),
        ).toEqual([6, "table", "Hi."]);
      },
      { served: { messages: { read: () => [[]] }, prose: { read: () => ["Hi."] } } },
    );
  });

  it("lets a read handler suspend the reading block", async () => {
    await withGuardedVm(async (vm, guard) => {
      guard.serve("prose", {
        read: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          return ["later"];
        },
      });
      expect(await resultOf(vm, "local p = prose\nreturn p .. '|' .. prose")).toBe("later|later");
    });
  });

  it("stops serving a name with unserve", async () => {
    await withGuardedVm(async (vm, guard) => {
      guard.serve("prose", { read: () => ["served"] });
      guard.unserve("prose");
      expect(guard.isServed("prose")).toBe(false);
      expect(
        await valuesAt(
          vm,
          "local before = prose\nsetmetatable(_G, { __index = function(_, k) return 'author ' .. k end })\nreturn before, prose",
        ),
      ).toEqual([null, "author prose"]);
    });
  });

  it("offers the same guard to Engine Lua through the private table", async () => {
    await withGuardedVm(async (vm, guard) => {
      privileged(
        vm,
        `local guard = (...).${GLOBAL_GUARD_PRIVATE_KEY}
         local slot = 'first'
         guard.serve('item', function(name) return name .. ':' .. slot end, function(_, v) slot = v end)`,
      );
      expect(guard.isServed("item")).toBe(true);
      expect(await valuesAt(vm, "local a = item\nitem = 'second'\nreturn a, item")).toEqual([
        "item:first",
        "item:second",
      ]);
      expect(
        privileged(
          vm,
          `local guard = (...).${GLOBAL_GUARD_PRIVATE_KEY}
           local served = guard.is_served('item')
           guard.unserve('item')
           return served, guard.is_served('item')`,
        ),
      ).toEqual([true, false]);
    });
  });

  it("answers getmetatable's question for Engine Lua through the private table", async () => {
    await withGuardedVm(async (vm) => {
      await resultOf(vm, "setmetatable(_G, { __metatable = 'locked' })");
      expect(
        privileged(
          vm,
          `local guard = (...).global_guard
           local sealed = setmetatable({}, { __metatable = false })
           return guard.getmetatable(_G), guard.getmetatable(sealed), guard.getmetatable(1), type(guard[1])`,
        ),
      ).toEqual(["locked", false, null, "table"]);
    });
  });

  it("never shows a tool as a global assignment, even under a __newindex hook", async () => {
    await withGuardedVm(async (vm) => {
      const offered: string[] = [];
      vm.setGlobal("tools", {
        offer: (call) => {
          offered.push(call.text(1) ?? "");
        },
      });
      expect(
        await resultOf(
          vm,
          `local captured = {}
           setmetatable(_G, { __newindex = function(_, k, v) captured[k] = v end })
           tools.offer('web/fetch')
           local n = 0
           for _ in next, captured do n = n + 1 end
           return n .. '|' .. tostring(web_fetch) .. '|' .. tostring(fetch)`,
        ),
      ).toBe("0|nil|nil");
      expect(offered).toEqual(["web/fetch"]);
    });
  });
});
