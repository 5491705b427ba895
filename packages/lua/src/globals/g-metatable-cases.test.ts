import { describe, expect, it } from "vitest";
import { formatUncaughtRuntimeError } from "../error-location/runtime-error";
import { loadLuaVmFactory } from "../vm/factory";
import { installGlobalGuard } from "./install";
import {
  failureOf,
  privileged,
  resultOf,
  runAt,
  standInRequire,
  withGuardedVm,
} from "./test-support";

// The cases of conformance/lua/13-g-metatable.yaml whose prompts need only this area, named as
// there. `require '## lib'`, `prose`, `messages`, `args` and `var` are stand-ins where a case
// only needs them to exist (see test-support.ts). Blocks run under the chunk name of their first
// prompt line where a case's expected text shows positions.

describe("conformance 13-g-metatable", () => {
  it("tone-default gives a missing global a default", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal(
        "require",
        standInRequire({
          defaults: `defaults = { tone = 'friendly' }
                     setmetatable(_G, { __index = defaults })`,
        }),
      );
      // The prose stand-in renders `Tone: {{ tone }}.` by reading the global as prompt code would.
      privileged(
        vm,
        `(...).global_guard.serve('prose', function() return 'Tone: ' .. tostring(tone) .. '.' end)`,
      );
      expect(await resultOf(vm, "require '## defaults'\nreturn prose")).toBe("Tone: friendly.");
    });
  });

  it("an __index function answers missing globals", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __index = function(_, key) return 'fallback ' .. key end })
           return missing_name`,
        ),
      ).toBe("fallback missing_name");
    });
  });

  it("an edit through getmetatable(_G) takes effect at once", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal(
        "require",
        standInRequire({
          defaults: `defaults = { tone = 'friendly' }
                     setmetatable(_G, { __index = defaults })`,
        }),
      );
      expect(
        await resultOf(
          vm,
          `require '## defaults'
           getmetatable(_G).__index = function(_, key) return 'live ' .. key end
           return tone`,
        ),
      ).toBe("live tone");
    });
  });

  it("getmetatable(_G) gives a required library's table", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal(
        "require",
        standInRequire({
          defaults: `defaults_mt = { __index = { tone = 'friendly' } }
                     setmetatable(_G, defaults_mt)`,
        }),
      );
      expect(
        await resultOf(
          vm,
          `local before = getmetatable(_G)
           require '## defaults'
           return tostring(before) .. '|' .. tostring(getmetatable(_G) == defaults_mt)`,
        ),
      ).toBe("nil|true");
    });
  });

  it("a default still reads in the second fence of the section", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal("var", {});
      await resultOf(vm, "setmetatable(_G, { __index = { tone = 'friendly' } })\nvar.first = tone");
      expect(
        await resultOf(vm, "return var.first .. '|' .. tone .. '|' .. tostring(absent_name)", 16),
      ).toBe("friendly|friendly|nil");
    });
  });

  it("an author metatable applies during the H1 pass", async () => {
    // The H1 pass and ## Main run in two VMs; the Engine carries var from one to the next.
    const factory = await loadLuaVmFactory();
    const h1 = factory.create();
    const main = factory.create();
    try {
      installGlobalGuard(h1);
      installGlobalGuard(main);
      h1.setGlobal("var", {});
      await resultOf(
        h1,
        "setmetatable(_G, { __index = { tone = 'h1 default' } })\nvar.tone = tone",
      );
      main.setGlobal("var", h1.getGlobal("var"));
      expect(await resultOf(main, "return var.tone")).toBe("h1 default");
    } finally {
      h1.close();
      main.close();
    }
  });

  it("a strict __index raises a plain string that pcall catches", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __index = function(_, name) error('undefined global ' .. name, 2) end })
local ok, err = pcall(function() return undefined_here end)
return tostring(ok) .. '|' .. type(err) .. '|' .. err`,
          12,
        ),
      ).toBe('false|string|[string "line 12"]:2: undefined global undefined_here');
    });
  });

  it("a strict __index fails the block at the reading line", async () => {
    await withGuardedVm(async (vm) => {
      const outcome = await runAt(
        vm,
        `setmetatable(_G, {
  __index = function(_, name)
    error('undefined global ' .. name, 2)
  end,
})
return undefined_here`,
        12,
      );
      if (outcome.ok) throw new Error("the block should fail");
      const message = formatUncaughtRuntimeError(outcome.message, outcome.traceback, (line) =>
        line === 12 ? "section `Main` prologue" : undefined,
      );
      expect(message.split("\n")[0]).toBe(
        "section `Main` prologue:17: runtime error: section `Main` prologue:17: undefined global undefined_here",
      );
    });
  });

  it("a __newindex function captures new globals", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local captured = {}
           setmetatable(_G, { __newindex = function(_, k, v) captured[k] = v end })
           plain = 'y'
           return captured.plain .. '|' .. tostring(plain)`,
        ),
      ).toBe("y|nil");
    });
  });

  it("a __newindex table receives new globals", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local sink = {}
           setmetatable(_G, { __newindex = sink })
           plain = 'y'
           return sink.plain .. '|' .. tostring(plain)`,
        ),
      ).toBe("y|nil");
    });
  });

  it("a __newindex hook never captures Engine globals", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal("args", "hi");
      expect(
        await resultOf(
          vm,
          `local captured = {}
           setmetatable(_G, { __newindex = function(_, k, v) captured[k] = v end })
           return args .. '|' .. tostring(captured.args)`,
        ),
      ).toBe("hi|nil");
    });
  });

  it("a library can install the __newindex hook for the requiring section", async () => {
    await withGuardedVm(async (vm) => {
      vm.setGlobal(
        "require",
        standInRequire({
          hook: `captured = {}
                 setmetatable(_G, { __newindex = function(_, k, v) captured[k] = v end })`,
        }),
      );
      expect(
        await resultOf(
          vm,
          `require '## hook'
           plain = 'y'
           return captured.plain .. '|' .. tostring(plain)`,
        ),
      ).toBe("y|nil");
    });
  });

  it("other metamethods apply to _G itself", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, {
             __call = function(_, name) return 'called ' .. name end,
             __tostring = function() return 'globals' end,
           })
           return _G('twice') .. '|' .. tostring(_G)`,
        ),
      ).toBe("called twice|globals");
    });
  });

  it("a second setmetatable on _G replaces the first completely", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __tostring = function() return 'globals' end })
           setmetatable(_G, {})
           return tostring(_G)`,
        ),
      ).toMatch(/^table: /);
    });
  });

  it("setmetatable on _G returns _G and getmetatable returns your table", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local before = getmetatable(_G)
           local mt = { __index = {} }
           local returned = setmetatable(_G, mt)
           local n = 0
           for _ in pairs(mt) do n = n + 1 end
           return tostring(before) .. '|' .. tostring(returned == _G) .. '|' .. tostring(getmetatable(_G) == mt) .. '|' .. n`,
        ),
      ).toBe("nil|true|true|1");
    });
  });

  it("setmetatable(_G, nil) removes your metatable and its copied metamethods", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local captured = {}
           setmetatable(_G, {
             __newindex = function(_, k, v) captured[k] = v end,
             __call = function() return 'called' end,
             __tostring = function() return 'globals' end,
           })
           setmetatable(_G, nil)
           plain = 'direct'
           local ok = pcall(_G, 'x')
           return tostring(getmetatable(_G)) .. '|' .. tostring(ok) .. '|' .. tostring(captured.plain) .. '|' .. plain .. '|' .. string.sub(tostring(_G), 1, 6)`,
        ),
      ).toBe("nil|false|nil|direct|table:");
    });
  });

  it("a protected _G metatable keeps supplying globals", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __metatable = 'locked', __index = { tone = 'friendly' } })
           return getmetatable(_G) .. '|' .. tone`,
        ),
      ).toBe("locked|friendly");
    });
  });

  it("a protected _G metatable cannot be changed", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, { __metatable = 'locked', __index = { tone = 'friendly' } })
local ok, err = pcall(function() setmetatable(_G, nil) end)
return tostring(ok) .. '|' .. tostring(err) .. '|' .. tone`,
          12,
        ),
      ).toBe('false|[string "line 12"]:2: cannot change a protected metatable|friendly');
    });
  });

  it("setmetatable on _G without a second argument is a bad argument", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() setmetatable(_G) end)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(
        `false|[string "line 1"]:1: bad argument #2 to 'setmetatable' (nil or table expected, got no value)`,
      );
    });
  });

  it("setmetatable on _G with a number is a bad argument", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() setmetatable(_G, 5) end)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(
        `false|[string "line 1"]:1: bad argument #2 to 'setmetatable' (nil or table expected, got number)`,
      );
    });
  });

  it("_G cannot become a weak table", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() setmetatable(_G, { __mode = 'k' }) end)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(
        `false|[string "line 1"]:1: setmetatable: weak tables (__mode) are not available for _G`,
      );
    });
  });

  it("other tables can still be weak", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t = setmetatable({}, { __mode = 'k' })
           return getmetatable(t).__mode`,
        ),
      ).toBe("k");
    });
  });

  it("finalizers are refused on an ordinary table", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() setmetatable({}, { __gc = function() end }) end)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(
        `false|[string "line 1"]:1: setmetatable: finalizers (__gc) are not available in the sandbox`,
      );
    });
  });

  it("finalizers are refused on _G", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function() setmetatable(_G, { __gc = function() end }) end)
           return tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(
        `false|[string "line 1"]:1: setmetatable: finalizers (__gc) are not available in the sandbox`,
      );
    });
  });

  it("a rejected setmetatable on _G keeps the earlier metatable", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local mt = { __index = { tone = 'kept' } }
           setmetatable(_G, mt)
           local ok = pcall(function() setmetatable(_G, { __mode = 'v' }) end)
           return tostring(ok) .. '|' .. tostring(getmetatable(_G) == mt) .. '|' .. tone`,
        ),
      ).toBe("false|true|kept");
    });
  });

  it("an __index function on an ordinary table supplies missing keys", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return setmetatable({}, { __index = function(_, k) return k .. '!' end }).x",
        ),
      ).toBe("x!");
    });
  });

  it("setmetatable and getmetatable return exactly one value", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return select('#', setmetatable({}, nil)) .. '|' .. select('#', getmetatable({})) .. '|' .. tostring(getmetatable({})) .. '|' .. tostring(getmetatable(5))",
        ),
      ).toBe("1|1|nil|nil");
    });
  });

  it("bad arguments to setmetatable and getmetatable name the function", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok1, err1 = pcall(function() setmetatable(1, {}) end)
           local ok2, err2 = pcall(function() getmetatable() end)
           return tostring(err1) .. ' / ' .. tostring(err2)`,
        ),
      ).toBe(
        `[string "line 1"]:1: bad argument #1 to 'setmetatable' (table expected, got number) / [string "line 1"]:2: bad argument #1 to 'getmetatable' (value expected)`,
      );
    });
  });

  it("a __metatable of false protects an ordinary table", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t = setmetatable({}, { __metatable = false })
           local ok, err = pcall(function() setmetatable(t, nil) end)
           return tostring(getmetatable(t)) .. '|' .. tostring(ok) .. '|' .. tostring(err)`,
        ),
      ).toBe(`false|false|[string "line 1"]:2: cannot change a protected metatable`);
    });
  });

  it("Listing globals: next over _G lists the raw globals only (spec example)", async () => {
    await withGuardedVm(
      async (vm) => {
        vm.setGlobal("args", "hi");
        expect(
          await resultOf(
            vm,
            `setmetatable(_G, { __index = function(_, k) return 'default ' .. k end })
             mine = 1
             local names = {}
             for name in next, _G do
               names[#names + 1] = name
             end
             table.sort(names)
             return table.concat(names, ',')`,
          ),
        ).toBe(
          "_G,_VERSION,args,assert,error,getmetatable,ipairs,math,mine,next,pairs,pcall,select,setmetatable,string,table,tonumber,tostring,type,xpcall",
        );
      },
      { served: { prose: { read: () => ["Hi."] } } },
    );
  });

  it("the Engine guard still serves prose under a strict metatable", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(
          await resultOf(
            vm,
            `local seen = {}
             setmetatable(_G, {
               __index = function(_, name) error('undefined global ' .. name, 2) end,
               __newindex = function(_, k, v) seen[k] = v end,
             })
             return prose`,
          ),
        ).toBe("Hi.");
      },
      { served: { prose: { read: () => ["Hi."] } } },
    );
  });

  it("assigning messages always raises", async () => {
    await withGuardedVm(
      async (vm) => {
        expect(
          await resultOf(
            vm,
            `local ok = pcall(function() messages = {} end)
             return tostring(ok)`,
          ),
        ).toBe("false");
        expect(await failureOf(vm, "messages = {}")).toBe("messages is read-only");
      },
      { served: { messages: { read: () => [{}] } } },
    );
  });
});
