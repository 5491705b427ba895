import { describe, expect, it } from "vitest";
import { installStandIns, resultOf, runAt, withErrorsVm } from "./test-support";

const CAREFUL_READ = `local ok, result = pcall(store.read, 'note.md')
if not ok then
  if result.kind == 'store' and result.reason == 'not_found' then
    return 'no note yet'
  end
  error(result)
end
return result`;

describe("pcall (spec: Raising and catching errors)", () => {
  it("careful-read reports that there is no note yet, or returns the note", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(await resultOf(vm, CAREFUL_READ)).toBe("no note yet");
    });
    await withErrorsVm(async (vm) => {
      installStandIns(vm, { "note.md": "hello" });
      expect(await resultOf(vm, CAREFUL_READ)).toBe("hello");
    });
  });

  it("a successful pcall returns every value, nils included", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local results = table.pack(pcall(function() return 1, nil, 3 end))
return select('#', pcall(function() return 1, nil, 3 end)) .. ' ' .. results.n .. ' ' .. tostring(results[1])`,
        ),
      ).toBe("4 4 true");
    });
  });

  it("passes extra arguments on: pcall(error, 'boom') gives the bare string", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "local ok, err = pcall(error, 'boom')\nreturn tostring(ok) .. '|' .. err",
        ),
      ).toBe("false|boom");
    });
  });

  it("calls a closure over a local of the block, and the wait crosses the pcall", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm, { "note.md": "hello" });
      expect(
        await resultOf(
          vm,
          `local path = 'note.md'
local ok, text = pcall(function() return store.read(path) end)
return tostring(ok) .. '|' .. text`,
        ),
      ).toBe("true|hello");
    });
  });

  it("returns your own raised values unchanged: a table keeps its identity", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local tbl = { kind = 'custom', message = 'handler exploded' }
local ok1, e1 = pcall(error, tbl)
local ok2, e2 = pcall(function() error('plain', 0) end)
local ok3, e3 = pcall(error, 42)
local ok4, e4 = pcall(error, false)
local ok5, e5 = pcall(error, nil)
return tostring(e1 == tbl) .. '|' .. e1.kind .. '|' .. e2 .. '|' .. math.type(e3) .. '|' .. tostring(e4) .. '|' .. tostring(e5)`,
        ),
      ).toBe("true|custom|plain|integer|false|nil");
    });
  });

  it("gives false and one value for error() and error(nil)", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return select('#', pcall(error)) .. '|' .. select('#', pcall(error, nil)) .. '|' .. tostring(select(2, pcall(error)))",
        ),
      ).toBe("2|2|nil");
    });
  });

  it("a runtime error in your own code reaches pcall as Lua's plain string", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(function()
  local f
  f()
end)
return tostring(ok) .. '|' .. type(err) .. '|' .. err`,
        ),
      ).toBe(`false|string|[string "line 12"]:3: attempt to call a nil value (local 'f')`);
    });
  });

  it("a caught runtime error keeps Lua's own block marker", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(vm, "local ok, err = pcall(function() error('raw') end)\nreturn err"),
      ).toBe('[string "line 12"]:1: raw');
    });
  });

  it("error at level 0 raises the bare message", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "local ok, err = pcall(function() error('compacted', 0) end)\nreturn err",
        ),
      ).toBe("compacted");
    });
  });

  it("catching a re-raised error value yields the same value", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok1, e1 = pcall(store.read, 'missing.txt')
local ok2, e2 = pcall(error, e1)
local ok3, e3 = pcall(error, e1, 2)
local ok4, e4 = pcall(assert, false, e1)
return tostring(e1 == e2 and e1 == e3 and e1 == e4) .. '|' .. e2.kind`,
        ),
      ).toBe("true|store");
    });
  });

  it("keeps the Lua function names of stock argument errors", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local a = select(2, pcall(pcall))
local b = select(2, pcall(function() pcall() end))
local c = select(2, pcall(nil))
return a .. '|' .. b .. '|' .. c`,
        ),
      ).toBe(
        `bad argument #1 to 'pcall' (value expected)|[string "line 12"]:2: bad argument #1 to 'pcall' (value expected)|attempt to call a nil value`,
      );
    });
  });

  it("keeps working when prompt code rebinds error, type and select", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local keep = tostring
error, type, select, setmetatable = nil, nil, nil, nil
local ok, err = pcall(store.read, 'missing.txt')
local ok2, err2 = xpcall(store.read, function(e) return e end, 'x.md')
return keep(ok) .. '|' .. err.kind .. '|' .. keep(err2)`,
        ),
      ).toBe("false|store|x.md: not found");
    });
  });

  it("lets a block recover and return normally after a caught failure", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(vm, "local ok = pcall(store.read, 'missing.txt')\nreturn tostring(not ok)"),
      ).toBe("true");
    });
  });

  it("suspends and resumes inside nested pcall and xpcall", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm, { "a.md": "A" });
      expect(
        await resultOf(
          vm,
          `local ok, v = pcall(function()
  return select(2, xpcall(function()
    local a = store.read('a.md')
    local ok2, e = pcall(store.read, 'b.md')
    return a .. '|' .. e.kind .. '|' .. store.read('a.md')
  end, function(e) return 'handled ' .. tostring(e) end))
end)
local ok3, h = xpcall(store.read, function(e) return 'handled ' .. tostring(e) end, 'c.md')
return v .. '|' .. h`,
        ),
      ).toBe("A|store|A|handled c.md: not found");
    });
  });
});

describe("xpcall (spec: Message handlers with xpcall)", () => {
  it("runs the handler on the failure and passes the extra arguments on", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, handled = xpcall(error, function(e) return 'handled ' .. tostring(e) end, 'boom')
return tostring(ok) .. '|' .. tostring(handled)`,
        ),
      ).toBe("false|handled boom");
    });
  });

  it("hands an Engine failure to the handler as an error value", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          `local ok, kind = xpcall(function() return sys.nothing end, function(e) return e.kind end)
return tostring(ok) .. '|' .. tostring(kind)`,
        ),
      ).toBe("false|lua");
    });
  });

  it("returns true and every value on success", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return select('#', xpcall(function(...) return ... end, error, 1, nil, 3)) .. '|' .. select(4, xpcall(function(...) return ... end, error, 1, nil, 3))",
        ),
      ).toBe("4|3");
    });
  });

  it("gives a handler that is not a function Lua's own argument error", async () => {
    await withErrorsVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local ok, err = pcall(xpcall, error, 5, 'boom')
local _, inline = pcall(function() xpcall(error) end)
local _, none = pcall(xpcall)
return tostring(ok) .. '|' .. tostring(err) .. '|' .. inline .. '|' .. none`,
        ),
      ).toBe(
        `false|bad argument #2 to 'xpcall' (function expected, got number)|[string "line 12"]:2: bad argument #2 to 'xpcall' (function expected, got no value)|bad argument #2 to 'xpcall' (function expected, got no value)`,
      );
    });
  });
});

describe("cancellation passes through pcall (spec: Cancellation passes through pcall)", () => {
  it("a pcall retry loop around a waiting call ends with the cancelled outcome", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobal("input", { ask: () => new Promise(() => undefined) });
      setTimeout(() => vm.cancel(), 20);
      const outcome = await runAt(vm, 12, "while true do\n  local ok = pcall(input.ask)\nend");
      expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
    });
  });

  it("an xpcall handler does not run when the waiting call is cancelled", async () => {
    let handled = 0;
    await withErrorsVm(async (vm) => {
      vm.setGlobals({
        input: { ask: () => new Promise(() => undefined) },
        handled: () => {
          handled++;
        },
      });
      setTimeout(() => vm.cancel(), 20);
      const outcome = await runAt(
        vm,
        12,
        "local ok = xpcall(input.ask, function(e) handled() return e end)\nreturn 'unreached'",
      );
      expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
    });
    expect(handled).toBe(0);
  });

  // Inside table.sort's comparator the hook cannot yield, so it raises `cancelled` instead; the
  // Engine's pcall must raise it again (stock pcall would let this loop run all 1000 rounds).
  it("pcall raises a cancellation again where the hook cannot yield", async () => {
    let armed = false;
    let rounds = 0;
    let handled = 0;
    await withErrorsVm(
      async (vm) => {
        vm.setGlobals({
          arm: () => {
            armed = true;
          },
          round: () => {
            rounds++;
          },
          handled: () => {
            handled++;
          },
        });
        const outcome = await runAt(
          vm,
          12,
          `table.sort({ 3, 2, 1 }, function(a, b)
  arm()
  for i = 1, 1000 do
    round()
    pcall(function() while true do end end)
    xpcall(function() while true do end end, function(e) handled() return e end)
  end
  return a < b
end)
return 'unreached'`,
        );
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      },
      { shouldCancel: () => armed, shouldCancelEvery: 1 },
    );
    expect(rounds).toBe(1);
    expect(handled).toBe(0);
  });
});
