import { describe, expect, it } from "vitest";
import { loadLuaVmFactory } from "../vm/factory";
import type { LuaVm } from "../vm/lua-vm";
import { installGlobalGuard } from "./install";
import { failureOf, privileged, resultOf, runAt, valuesAt, withGuardedVm } from "./test-support";

// Prompt code trying to get past the Engine guard on _G, into raw _G storage, the private table,
// another VM or the host, through metatables. Every attempt must end in a clear Lua error or the
// behaviour the chapter states, never a crash, and the VM must stay usable afterwards.

/** The served stand-ins most attacks run against. */
const SERVED = {
  served: {
    prose: { read: () => ["Hi."] },
    argv: { read: () => [{ topic: "lua" }] },
    messages: { read: () => [[]] },
  },
};

/** Asserts the VM still runs a block that uses the guard normally. */
async function stillUsable(vm: LuaVm): Promise<void> {
  expect(await resultOf(vm, "local t = { 'ok', prose }\nreturn table.concat(t, ':')")).toBe(
    "ok:Hi.",
  );
}

describe("attacks on the _G guard", () => {
  it("1. getmetatable(_G) never hands out the Engine guard", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local a = getmetatable(_G)
           local mt = {}
           setmetatable(_G, mt)
           local b = getmetatable(_G) == mt
           setmetatable(_G, nil)
           return a, b, getmetatable(_G)`,
        ),
      ).toEqual([null, true, null]);
      await stillUsable(vm);
    }, SERVED);
  });

  it("2. raw access functions are gone, so raw _G storage is out of reach", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local found = {}
           for _, name in ipairs({ 'rawget', 'rawset', 'rawequal', 'rawlen', 'debug', 'load', 'coroutine' }) do
             if _G[name] ~= nil then found[#found + 1] = name end
           end
           return #found`,
        ),
      ).toBe(0);
      expect(await failureOf(vm, "return rawget(_G, 'prose')")).toBe(
        `[string "line 1"]:1: attempt to call a nil value (global 'rawget')`,
      );
    }, SERVED);
  });

  it("3. a traversal of everything reachable finds no private function, guard state or guard", async () => {
    await withGuardedVm(async (vm) => {
      await resultOf(vm, "setmetatable(_G, { __index = { tone = 'x' } })");
      expect(
        await resultOf(
          vm,
          `local seen, queue, suspicious = {}, { _G, getmetatable(''), getmetatable(_G) }, {}
           local bad = { rawget = 1, rawset = 1, rawequal = 1, coroutine = 1, string_rep = 1,
                         global_guard = 1, serve = 1, newindex = 1, read = 1, assign = 1 }
           while #queue > 0 do
             local t = table.remove(queue)
             if not seen[t] then
               seen[t] = true
               for k, v in next, t do
                 if type(k) == 'string' and bad[k] then suspicious[#suspicious + 1] = k end
                 if type(v) == 'table' then queue[#queue + 1] = v end
                 local mt = getmetatable(v)
                 if type(mt) == 'table' then queue[#queue + 1] = mt end
               end
             end
           end
           return table.concat(suspicious, ',')`,
        ),
      ).toBe("");
    }, SERVED);
  });

  it("4. served names never show up in _G, by next, pairs or a raw read", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local hits = 0
           for k in next, _G do if k == 'prose' or k == 'argv' or k == 'messages' then hits = hits + 1 end end
           for k in pairs(_G) do if k == 'prose' or k == 'argv' or k == 'messages' then hits = hits + 1 end end
           return hits`,
        ),
      ).toBe(0);
      expect(
        privileged(vm, "local P = ... return P.rawget(_G, 'argv'), P.rawget(_G, 'messages')"),
      ).toEqual([null, null]);
    }, SERVED);
  });

  it("5. an author __index cannot impersonate a served name", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __index = function(_, k) return 'fake ' .. k end })
           return prose .. '|' .. type(argv) .. '|' .. other`,
        ),
      ).toBe("Hi.|table|fake other");
    }, SERVED);
  });

  it("6. an author __newindex cannot capture or overwrite a served name", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local captured = {}
           setmetatable(_G, { __newindex = function(_, k, v) captured[k] = v end })
           local ok, err = pcall(function() prose = 'mine' end)
           return tostring(ok) .. '|' .. tostring(err) .. '|' .. tostring(captured.prose) .. '|' .. prose`,
        ),
      ).toBe("false|prose is read-only|nil|Hi.");
      expect(privileged(vm, "local P = ... return P.rawget(_G, 'prose')")).toEqual([null]);
    }, SERVED);
  });

  it("7. a __gc field is refused on _G, and a rejected call records nothing", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local mt = { __index = { a = 1 } }
           setmetatable(_G, mt)
           local ok, err = pcall(setmetatable, _G, { __gc = function() end, __index = { a = 2 } })
           return ok, err, a, getmetatable(_G) == mt`,
        ),
      ).toEqual([
        false,
        "setmetatable: finalizers (__gc) are not available in the sandbox",
        1,
        true,
      ]);
      expect(privileged(vm, "local P = ... return P.rawget(P.getmetatable(_G), '__gc')")).toEqual([
        null,
      ]);
    });
  });

  it("8. __gc or __mode added to the author metatable afterwards never reach the guard", async () => {
    await withGuardedVm(async (vm) => {
      await resultOf(
        vm,
        `local mt = {}
         setmetatable(_G, mt)
         getmetatable(_G).__gc = function() end
         getmetatable(_G).__mode = 'kv'`,
      );
      expect(
        privileged(
          vm,
          "local P = ... local g = P.getmetatable(_G) return P.rawget(g, '__gc'), P.rawget(g, '__mode')",
        ),
      ).toEqual([null, null]);
      expect(await failureOf(vm, "setmetatable(_G, getmetatable(_G))")).toBe(
        `[string "line 1"]:1: setmetatable: finalizers (__gc) are not available in the sandbox`,
      );
    });
  });

  it("9. a __gc reached only through the metatable's own __index is no finalizer", async () => {
    await withGuardedVm(async (vm) => {
      await resultOf(
        vm,
        `ran = false
         local mt = setmetatable({}, { __index = { __gc = function() ran = true end } })
         for i = 1, 10 do setmetatable({}, mt) end`,
      );
      privileged(vm, "local P = ... P.collectgarbage('collect') P.collectgarbage('collect')");
      expect(await resultOf(vm, "return ran")).toBe(false);
    });
  });

  it("10. __index recursion through _G ends in a Lua error, and the VM stays usable", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          "setmetatable(_G, { __index = function(t, k) return t[k] end })\nreturn missing",
        ),
      ).toMatch(/stack overflow/);
      await resultOf(vm, "setmetatable(_G, nil)");
      await stillUsable(vm);
    }, SERVED);
  });

  it("11. an __index that is _G itself ends in a Lua error", async () => {
    await withGuardedVm(async (vm) => {
      expect(await failureOf(vm, "setmetatable(_G, { __index = _G })\nreturn missing")).toMatch(
        /stack overflow/,
      );
      await resultOf(vm, "setmetatable(_G, nil)");
      await stillUsable(vm);
    }, SERVED);
  });

  it("12. a loop between an __index table and _G ends in a Lua error", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          `local a = {}
           setmetatable(_G, { __index = a })
           setmetatable(a, { __index = _G })
           return missing`,
        ),
      ).toMatch(/stack overflow/);
      await resultOf(vm, "setmetatable(_G, nil)");
      await stillUsable(vm);
    }, SERVED);
  });

  it("13. a __newindex that assigns back into _G ends in a Lua error", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          "setmetatable(_G, { __newindex = function(t, k, v) t[k] = v end })\nx = 1",
        ),
      ).toMatch(/stack overflow/);
      await resultOf(vm, "setmetatable(_G, nil)\ny = 1");
      await stillUsable(vm);
    }, SERVED);
  });

  it("14. a pcall-caught recursion leaves the guard intact", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `setmetatable(_G, { __index = function(t, k) return t[k] end })
           local ok = pcall(function() return missing end)
           setmetatable(_G, { __index = { tone = 'back' } })
           return ok, tone, prose`,
        ),
      ).toEqual([false, "back", "Hi."]);
    }, SERVED);
  });

  it("15. an __index chain loop between plain tables is Lua's own chain error", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          `local a, b = {}, {}
           setmetatable(a, { __index = b })
           setmetatable(b, { __index = a })
           setmetatable(_G, { __index = a })
           return missing`,
        ),
      ).toMatch(/'__index' chain too long; possible loop$/);
    });
  });

  it("16. setmetatable(_G, _G) is accepted and reads stay sound", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `setmetatable(_G, _G)
           local same = getmetatable(_G) == _G
           local a = missing
           __index = { tone = 'via _G' }
           return same, a, tone, prose`,
        ),
      ).toEqual([true, null, "via _G", "Hi."]);
    }, SERVED);
  });

  it("17. a protected metatable cannot be unlocked through what getmetatable returns", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local proxy = { __index = { tone = 'proxy' } }
           setmetatable(_G, { __metatable = proxy, __index = { tone = 'real' } })
           getmetatable(_G).__index = { tone = 'edited' }
           getmetatable(_G).__metatable = nil
           local ok, err = pcall(setmetatable, _G, nil)
           return tone, ok, err`,
        ),
      ).toEqual(["real", false, "cannot change a protected metatable"]);
    });
  });

  it("18. replacing the global setmetatable or getmetatable does not unseat the guard", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `setmetatable = function(t) return t end
           getmetatable = function() return { __index = function() return 'fake' end } end
           setmetatable(_G, nil)
           return prose, missing`,
        ),
      ).toEqual(["Hi.", null]);
    }, SERVED);
  });

  it("19. an author handler receives _G, never the guard", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local got = {}
           local mt = {
             __index = function(t) got[#got + 1] = t end,
             __newindex = function(t) got[#got + 1] = t end,
             __call = function(t) got[#got + 1] = t end,
           }
           setmetatable(_G, mt)
           local _ = missing
           fresh = 1
           _G()
           return #got, got[1] == _G, got[2] == _G, got[3] == _G, getmetatable(got[1]) == mt`,
        ),
      ).toEqual([3, true, true, true, true]);
    });
  });

  it("20. a __tostring on _G that returns no string is Lua's error, not a crash", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          "setmetatable(_G, { __tostring = function() return {} end })\nreturn tostring(_G)",
        ),
      ).toBe(`[string "line 1"]:2: '__tostring' must return a string`);
      await resultOf(vm, "setmetatable(_G, nil)");
      await stillUsable(vm);
    }, SERVED);
  });

  it("21. a non-string __name on _G is ignored, as stock tostring ignores it", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "setmetatable(_G, { __name = {} })\nreturn tostring(_G)")).toMatch(
        /^table: /,
      );
    });
  });

  it("22. odd arguments to setmetatable and getmetatable end in stock errors", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local r = {}
           r[1] = select(2, pcall(setmetatable))
           r[2] = select(2, pcall(setmetatable, nil, {}))
           r[3] = select(2, pcall(setmetatable, _G, 'x'))
           r[4] = select(2, pcall(setmetatable, _G, true))
           r[5] = select('#', setmetatable(_G, nil, 'extra', 1, 2))
           r[6] = select(2, pcall(getmetatable, nil)) == nil
           return table.unpack(r, 1, 6)`,
        ),
      ).toEqual([
        "bad argument #1 to 'setmetatable' (table expected, got no value)",
        "bad argument #1 to 'setmetatable' (table expected, got nil)",
        "bad argument #2 to 'setmetatable' (nil or table expected, got string)",
        "bad argument #2 to 'setmetatable' (nil or table expected, got boolean)",
        1,
        true,
      ]);
    });
  });

  it("23. a huge author metatable is copied, and running out of memory mid-copy records nothing", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(
          await valuesAt(
            vm,
            `local mt = { __index = { tone = 'kept' } }
             setmetatable(_G, mt)
             local big = {}
             for i = 1, 20000 do big['__m' .. i] = i end
             local filler = {}
             while pcall(function() filler[#filler + 1] = string.rep('x', 512) .. #filler end) do end
             for i = 1, 20 do filler[#filler] = nil end
             local ok, err = pcall(setmetatable, _G, big)
             filler = nil
             return ok, err, getmetatable(_G) == mt, tone, tostring(_G):sub(1, 6)`,
          ),
        ).toEqual([false, "not enough memory", true, "kept", "table:"]);
        expect(
          await resultOf(
            vm,
            "local big = {}\nfor i = 1, 2000 do big['__m' .. i] = i end\nsetmetatable(_G, big)\nreturn 'copied'",
          ),
        ).toBe("copied");
      },
      undefined,
      { luaMemoryBytes: 4 * 1024 * 1024 },
    );
  });

  it("24. tampering with the shared string metatable stays inside its own VM", async () => {
    const factory = await loadLuaVmFactory();
    const a = factory.create();
    const b = factory.create();
    try {
      installGlobalGuard(a);
      installGlobalGuard(b);
      await resultOf(
        a,
        `getmetatable('').__index = function(s, k) return 'hijacked ' .. k end
         getmetatable('').__metatable = 'sealed string'
         string.upper = nil`,
      );
      expect(await valuesAt(a, "return ('x').upper, getmetatable('')")).toEqual([
        "hijacked upper",
        "sealed string",
      ]);
      expect(
        await valuesAt(
          b,
          "return ('x'):upper(), getmetatable('').__index == string, type(string.upper)",
        ),
      ).toEqual(["X", true, "function"]);
    } finally {
      a.close();
      b.close();
    }
  });

  it("25. a hijacked string metatable does not break the guard or table.concat in the same VM", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local smt = getmetatable('')
           smt.__index = function() error('hijacked') end
           smt.__concat = function() error('hijacked') end
           string.format, table.remove = nil, nil
           type, tostring, pcall = nil, nil, nil
           local point = setmetatable({}, { __tostring = function() return 'P' end })
           setmetatable(_G, { __index = { tone = 'friendly' } })
           local joined = table.concat({ 'a', point, 3 }, ',')
           return table.concat({ joined, tone, prose, tostring == nil and 'no tostring' or '?' }, '|')`,
        ),
      ).toBe("a,P,3|friendly|Hi.|no tostring");
    }, SERVED);
  });

  it("26. globals and author metatables of one VM never reach another", async () => {
    const factory = await loadLuaVmFactory();
    const a = factory.create();
    const b = factory.create();
    try {
      installGlobalGuard(a);
      installGlobalGuard(b);
      await resultOf(
        a,
        `secret = 'from a'
         setmetatable(_G, { __index = function() return 'a default' end, __call = function() return 'a' end })`,
      );
      expect(
        await valuesAt(
          b,
          "return tostring(secret), tostring(anything), getmetatable(_G), pcall(_G)",
        ),
      ).toEqual([
        "nil",
        "nil",
        null,
        false,
        expect.stringMatching(/attempt to call a table value/),
      ]);
      expect(await valuesAt(a, "return secret, anything")).toEqual(["from a", "a default"]);
    } finally {
      a.close();
      b.close();
    }
  });

  it("27. closing a VM with an author metatable leaves a fresh VM clean", async () => {
    const factory = await loadLuaVmFactory();
    const a = factory.create();
    installGlobalGuard(a);
    await resultOf(a, "setmetatable(_G, { __index = { leaked = 'yes' } })");
    a.close();
    const b = factory.create();
    try {
      installGlobalGuard(b);
      expect(await valuesAt(b, "return leaked, getmetatable(_G)")).toEqual([null, null]);
    } finally {
      b.close();
    }
  });

  it("28. an author __index may suspend on an Engine call without breaking the guard", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal("store", {
        read: async (call) => {
          const name = call.text(1);
          await new Promise((resolve) => setTimeout(resolve, 1));
          return [`file ${name}`];
        },
      });
      expect(
        await valuesAt(
          vm,
          `setmetatable(_G, {
             __index = function(_, k) return store.read(k) end,
             __newindex = function(t, k, v) store.read(k) end,
           })
           dropped = 1
           return note, tostring(dropped), prose`,
        ),
      ).toEqual(["file note", "file dropped", "Hi."]);
    }, SERVED);
  });

  it("29. a table error value raised from __index passes through pcall unchanged", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local raised = setmetatable({ code = 7 }, { __tostring = function() return 'custom' end })
           setmetatable(_G, { __index = function() error(raised) end })
           local ok, err = pcall(function() return missing end)
           return ok, err == raised, tostring(err)`,
        ),
      ).toEqual([false, true, "custom"]);
    });
  });

  it("30. string.dump of the Engine's Lua helpers gives nothing that can be run", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local code = string.dump(table.concat)
           local ok, err = pcall(string.dump, setmetatable)
           return type(code), tostring(load), ok, err`,
        ),
      ).toEqual(["string", "nil", false, "unable to dump given function"]);
    });
  });

  it("31. a deep recursion in prompt code is a Lua error, not a crash", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(vm, "local function f(n) return 1 + f(n + 1) end\nreturn f(1)"),
      ).toMatch(/stack overflow/);
      await stillUsable(vm);
    }, SERVED);
  });

  it("32. a userdata handle's metatable stays unreadable and unchangeable", async () => {
    await withGuardedVm(async (vm) => {
      const { setUserdataGlobal } = await import("./test-support");
      setUserdataGlobal(vm, "handle", "model writer");
      expect(
        await valuesAt(
          vm,
          `local ok, err = pcall(setmetatable, handle, {})
           return getmetatable(handle), ok, err, tostring(handle)`,
        ),
      ).toEqual([
        "locked",
        false,
        "bad argument #1 to 'setmetatable' (table expected, got userdata)",
        "model writer",
      ]);
    });
  });

  it("33. the same attacks in a block that fails uncaught still end with a message, not a crash", async () => {
    await withGuardedVm(async (vm) => {
      const outcome = await runAt(
        vm,
        "setmetatable(_G, { __index = _G })\nlocal x = missing\nreturn x",
        40,
      );
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.reason).toBe("error");
        expect(outcome.traceback).toContain("stack traceback:");
      }
      expect(vm.closed).toBe(false);
    });
  });
});
