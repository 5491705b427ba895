import { describe, expect, it } from "vitest";
import { loadLuaRuntime } from "../runtime";
import type { HostFunction } from "../vm/values";
import type { PreludeChunk } from "./install";
import { installPreludes } from "./install";
import { preludeChunkName } from "./messages";
import { blockValue, USER_INPUT_PRELUDE, withPreludes } from "./test-support";

/** A `tools` stand-in whose call answers at once (or suspends when `later`). */
function toolsGlobal(later = false): Record<string, HostFunction> {
  return {
    call: (call) => {
      const answer = [`called ${call.text(1) ?? "?"}`];
      return later ? Promise.resolve(answer) : answer;
    },
  };
}

const kit = (source: string): PreludeChunk => ({ pack: "kit", source });

describe("installPreludes", () => {
  it("installs nothing, and does not touch the VM, without preludes", async () => {
    await withPreludes([], async (vm, outcome) => {
      expect(outcome).toEqual({ ok: true });
      expect(vm.globalNames()).not.toContain("runvil.preludes.install");
    });
  });

  it("installs the user-input prelude: input.ask reaches tools.call with the Pack's own id", async () => {
    await withPreludes(
      [{ pack: "user-input", source: USER_INPUT_PRELUDE }],
      async (vm, outcome) => {
        expect(outcome).toEqual({ ok: true });
        expect(await blockValue(vm, "return input.ask()")).toBe("called user-input/ask");
        expect(await blockValue(vm, "return type(_G.input) .. '|' .. type(input.ask)")).toBe(
          "table|function",
        );
      },
      { globals: { tools: toolsGlobal(true) } },
    );
  });

  it("loads bytecode compiled from the prelude text the same way", async () => {
    const runtime = await loadLuaRuntime();
    const compiled = runtime.compile(
      "local pack = ...\nanswer = pack .. '!'",
      preludeChunkName("kit"),
    );
    if (!compiled.ok) throw new Error(compiled.diagnostic);
    await withPreludes([{ pack: "kit", bytecode: compiled.bytecode }], async (vm, outcome) => {
      expect(outcome).toEqual({ ok: true });
      expect(await blockValue(vm, "return answer")).toBe("kit!");
    });
  });

  it("leaves no trace of the install in _G, with or without install-time store calls", async () => {
    for (const source of ["x = 1", "store.write('a.txt', 'x')\nx = 1"]) {
      await withPreludes([kit(source)], async (vm, outcome) => {
        expect(outcome).toEqual({ ok: true });
        expect(
          vm.globalNames().filter((name) => !name.startsWith("_") && name.includes(".")),
        ).toEqual([]);
        expect(vm.getGlobal("runvil.preludes.install")).toBeNull();
      });
    }
  });

  it("gives `...` the Pack id only and ignores the returned value", async () => {
    await withPreludes([kit("n = select('#', ...)\nid = ...\nreturn 'ignored'")], async (vm) => {
      expect(await blockValue(vm, "return n .. '|' .. id")).toBe("1|kit");
    });
  });

  it("installs only the globals still assigned when the prelude ends", async () => {
    await withPreludes([kit("gone = 1\ngone = nil\nkept = 2")], async (vm) => {
      expect(await blockValue(vm, "return type(gone) .. '|' .. kept")).toBe("nil|2");
    });
  });

  it("installs non-table values as they are", async () => {
    await withPreludes(
      [
        kit(
          "answer = 42\nlabel = 'kit'\nfunction shout(text) return text:upper() end\nnothing = json.null",
        ),
      ],
      async (vm) => {
        expect(
          await blockValue(
            vm,
            "return answer .. label .. shout('hi') .. tostring(nothing == json.null) .. math.type(answer)",
          ),
        ).toBe("42kitHItrueinteger");
      },
    );
  });

  it("shows prelude code only the restricted environment", async () => {
    const names = [
      "assert",
      "error",
      "getmetatable",
      "ipairs",
      "next",
      "pairs",
      "pcall",
      "select",
      "setmetatable",
      "tonumber",
      "tostring",
      "type",
      "xpcall",
      "string",
      "table",
      "math",
      "tools",
      "store",
      "untrusted",
      "json",
      "var",
      "_G",
      "_VERSION",
      "sys",
      "log",
      "require",
      "print",
      "load",
      "rawget",
      "coroutine",
      "debug",
      "argv",
    ];
    const probe = `seen = {}\nfor _, name in ipairs({ ${names.map((n) => `'${n}'`).join(", ")} }) do
  seen[#seen + 1] = name .. '=' .. type(_ENV[name])
end
seen = table.concat(seen, ' ')`;
    await withPreludes(
      [kit(probe)],
      async (vm) => {
        expect(await blockValue(vm, "return seen")).toBe(
          [
            "assert=function error=function getmetatable=function ipairs=function next=function",
            "pairs=function pcall=function select=function setmetatable=function tonumber=function",
            "tostring=function type=function xpcall=function string=table table=table math=table",
            "tools=table store=table untrusted=function json=table var=table _G=nil _VERSION=nil",
            "sys=nil log=nil require=nil print=nil load=nil rawget=nil coroutine=nil debug=nil",
            "argv=nil",
          ].join(" "),
        );
      },
      { globals: { tools: toolsGlobal(), untrusted: () => ["u"], sys: { x: 1 }, log: () => [] } },
    );
  });

  it("hands prelude code the section's own values (pcall, tools, store, json)", async () => {
    const source = `same = {}
function same.check(p, t, s, j, x) return p == pcall and t == tools and s == store and j == json and x == xpcall end`;
    await withPreludes(
      [kit(source)],
      async (vm) => {
        expect(await blockValue(vm, "return same.check(pcall, tools, store, json, xpcall)")).toBe(
          true,
        );
      },
      { globals: { tools: toolsGlobal() } },
    );
  });

  it("keeps the environment for prelude functions called later; helpers see no section globals", async () => {
    await withPreludes(
      [kit("probe = {}\nfunction probe.read() return type(mine) .. '|' .. type(probe) end")],
      async (vm) => {
        expect(await blockValue(vm, "mine = 1\nreturn probe.read()")).toBe("nil|table");
      },
    );
  });

  it("keeps each prelude's globals out of the others' environments", async () => {
    await withPreludes(
      [
        { pack: "alpha", source: "shared_a = 1\nfunction a_sees() return type(shared_b) end" },
        { pack: "beta", source: "shared_b = 2\nfunction b_sees() return type(shared_a) end" },
      ],
      async (vm) => {
        expect(await blockValue(vm, "return a_sees() .. b_sees() .. shared_a .. shared_b")).toBe(
          "nilnil12",
        );
      },
    );
  });

  describe("sealed tables", () => {
    const source =
      "cfg = { inner = {}, list = { 'a', 'b' } }\nfunction cfg.get() return cfg.inner end";

    it("reads through, hides its fields and metatable, and refuses writes with the key's text", async () => {
      await withPreludes([kit(source)], async (vm) => {
        expect(
          await blockValue(
            vm,
            `local n = 0
for _ in pairs(cfg) do n = n + 1 end
return table.concat({ getmetatable(cfg), tostring(n), tostring(next(cfg)), tostring(#cfg),
  cfg.list[2], tostring(cfg.get() == cfg.inner), tostring(pcall(setmetatable, cfg, {})) }, '|')`,
          ),
        ).toBe("cfg is sealed|0|nil|0|b|true|false");
        const refusals = await blockValue(
          vm,
          `local out = {}
for _, key in ipairs({ 'x', 1, 2.0, 2.5, true }) do
  local _, e = pcall(function() cfg[key] = 1 end)
  out[#out + 1] = tostring(e)
end
local _, e = pcall(function() cfg[cfg] = 1 end)
out[#out + 1] = tostring(e) .. '|' .. e.kind
return table.concat(out, '\\n')`,
        );
        expect(refusals).toBe(
          [
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set 'x'",
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set '1'",
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set '2'",
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set 'number'",
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set 'boolean'",
            "runtime error: cfg is read-only: Pack `kit` defines it; cannot set 'table'|lua",
          ].join("\n"),
        );
      });
    });

    it("leaves nested tables writable and lets the prelude's own functions change the table", async () => {
      await withPreludes(
        [kit("box = { n = 0 }\nfunction box.bump() box.n = box.n + 1 return box.n end")],
        async (vm) => {
          expect(await blockValue(vm, "box.bump()\nreturn box.bump() .. '|' .. box.n")).toBe("2|2");
        },
      );
    });

    it("encodes with json.encode as the table it seals", async () => {
      await withPreludes([kit("data = { a = 1, list = { 1, 2 } }")], async (vm) => {
        expect(await blockValue(vm, "return json.encode(data)")).toBe('{"a":1,"list":[1,2]}');
      });
    });
  });

  describe("var inside a prelude", () => {
    const probe = `probe = {}
function probe.read(path) local v = var for step in path:gmatch('[^.]+') do v = v[tonumber(step) or step] end return v end
function probe.set(fn) return fn(var) end
function probe.meta(path) return getmetatable(probe.read(path)) end
function probe.encode() return json.encode(var) end`;

    it("reads the section's var live at every depth", async () => {
      await withPreludes(
        [kit(probe)],
        async (vm) => {
          expect(
            await blockValue(
              vm,
              `local before = probe.read('mode')
var.mode = 'slow'
var.cfg.list[1].n = 5
return before .. '|' .. probe.read('mode') .. '|' .. probe.read('cfg.list.1.n') .. '|' ..
  tostring(probe.read('cfg.list') == probe.read('cfg.list')) .. '|' .. tostring(probe.read('none'))`,
            ),
          ).toBe("fast|slow|5|true|nil");
        },
        { varData: { initial: { mode: "fast", cfg: { list: [{ n: 1n }] } } } },
      );
    });

    it("refuses every write, naming the path and the key, and leaves var unchanged", async () => {
      await withPreludes(
        [kit(probe)],
        async (vm) => {
          const text = await blockValue(
            vm,
            `local out = {}
for _, write in ipairs({
  function(v) v.mode = 'slow' end,
  function(v) v[1] = 1 end,
  function(v) v[2.5] = 1 end,
  function(v) v.cfg.mode = 'slow' end,
  function(v) v.cfg.list[1].n = 2 end,
  function(v) v.cfg.list[1] = 2 end,
}) do
  local ok, e = pcall(probe.set, write)
  out[#out + 1] = tostring(ok) .. ' ' .. tostring(e)
end
out[#out + 1] = var.mode .. '|' .. var.cfg.mode .. '|' .. var.cfg.list[1].n
return table.concat(out, '\\n')`,
          );
          expect(text).toBe(
            [
              "false runtime error: var is read-only inside a Pack prelude; cannot set 'mode'",
              "false runtime error: var is read-only inside a Pack prelude; cannot set '1'",
              "false runtime error: var is read-only inside a Pack prelude; cannot set 'number'",
              "false runtime error: var.cfg is read-only inside a Pack prelude; cannot set 'mode'",
              "false runtime error: var.cfg.list[1] is read-only inside a Pack prelude; cannot set 'n'",
              "false runtime error: var.cfg.list is read-only inside a Pack prelude; cannot set '1'",
              "fast|fast|1",
            ].join("\n"),
          );
        },
        { varData: { initial: { mode: "fast", cfg: { mode: "fast", list: [{ n: 1n }] } } } },
      );
    });

    it("hides its metatable and cannot be encoded", async () => {
      await withPreludes(
        [kit(probe)],
        async (vm) => {
          expect(await blockValue(vm, "return probe.meta('') .. '|' .. probe.meta('cfg')")).toBe(
            "var is read-only|var is read-only",
          );
          expect(
            await blockValue(vm, "local ok, e = pcall(probe.encode)\nreturn tostring(e)"),
          ).toBe(
            "json.encode: value cannot be read (var is read-only); copy the fields you need into a plain table",
          );
        },
        { varData: { initial: { cfg: {} } } },
      );
    });
  });

  describe("store calls while a prelude loads", () => {
    it("run directly in order, and a captured store function suspends later", async () => {
      const source = `local write, read = store.write, store.read
write('seed.txt', 'seed')
seeded = read('seed.txt')
local ok, e = pcall(read, 'missing.txt')
missing = tostring(ok) .. ' ' .. tostring(e)
notes = {}
function notes.keep(text) write('notes.md', text) return read('notes.md') end`;
      await withPreludes([kit(source)], async (vm, outcome, store) => {
        expect(outcome).toEqual({ ok: true });
        expect(store.calls).toEqual(["write seed.txt", "read seed.txt", "read missing.txt"]);
        expect(await blockValue(vm, "return seeded .. '|' .. missing")).toBe(
          "seed|false missing.txt: not found",
        );
        expect(await blockValue(vm, "return notes.keep('kept')")).toBe("kept");
        expect(store.calls.slice(3)).toEqual(["write notes.md", "read notes.md"]);
      });
    });

    it("leave the section's store functions as they were once the install ends", async () => {
      await withPreludes([kit("store.write('a.txt', 'x')")], async (vm, _outcome, store) => {
        expect(await blockValue(vm, "store.write('b.txt', 'y')\nreturn store.read('b.txt')")).toBe(
          "y",
        );
        expect(store.calls).toEqual(["write a.txt", "write b.txt", "read b.txt"]);
      });
    });
  });

  describe("load failures", () => {
    it("names the Pack, the raising line, and carries the traceback", async () => {
      await withPreludes([kit("local x = 1\nerror('prelude boom')")], async (_vm, outcome) => {
        expect(outcome).toEqual({
          ok: false,
          reason: "load",
          pack: "kit",
          message: [
            "Pack `kit`: its prelude failed to load: pack:kit:2: prelude boom. A prelude only defines functions; it must not call tools while loading.",
            "stack traceback:",
            "\t[C]: in function 'error'",
            "\tpack:kit:2: in main chunk",
          ].join("\n"),
        });
      });
    });

    it("reports a compile error without a traceback", async () => {
      await withPreludes([kit("x = = 1")], async (_vm, outcome) => {
        expect(outcome).toEqual({
          ok: false,
          reason: "load",
          pack: "kit",
          message:
            "Pack `kit`: its prelude failed to load: pack:kit:1: unexpected symbol near '='. A prelude only defines functions; it must not call tools while loading.",
        });
      });
    });

    it("refuses a binary chunk given as source", async () => {
      await withPreludes([kit("\u001bLua")], async (_vm, outcome) => {
        expect(outcome.ok === false && outcome.reason === "load" && outcome.message).toBe(
          "Pack `kit`: its prelude failed to load: attempt to load a binary chunk (mode is 't'). A prelude only defines functions; it must not call tools while loading.",
        );
      });
    });

    it("places an error value at the prelude line that raised it", async () => {
      await withPreludes([kit("local a = 1\nx = store.read('nope')")], async (_vm, outcome) => {
        expect(outcome.ok === false && outcome.reason === "load" && outcome.message).toMatch(
          /^Pack `kit`: its prelude failed to load: pack:kit:2: nope: not found\. A prelude only defines functions; it must not call tools while loading\.\nstack traceback:\n[\s\S]*\tpack:kit:2: in main chunk$/,
        );
      });
    });

    it("refuses a tool call, which cannot suspend while the prelude loads", async () => {
      await withPreludes(
        [kit("local page = tools.call('web/fetch')")],
        async (_vm, outcome) => {
          expect(outcome.ok === false && outcome.reason === "load" && outcome.message).toBe(
            [
              "Pack `kit`: its prelude failed to load: pack:kit:1: attempt to yield across a C-call boundary. A prelude only defines functions; it must not call tools while loading.",
              "stack traceback:",
              "\t[C]: in field 'call'",
              "\tpack:kit:1: in main chunk",
            ].join("\n"),
          );
        },
        { globals: { tools: toolsGlobal(true) } },
      );
    });

    it("lets a prelude catch its own refused tool call: the call never happened", async () => {
      await withPreludes(
        [
          kit(
            "local ok, e = pcall(tools.call, 'web/fetch')\ncaught = tostring(ok) .. ' ' .. tostring(e)",
          ),
        ],
        async (vm, outcome) => {
          expect(outcome).toEqual({ ok: true });
          expect(await blockValue(vm, "return caught")).toBe(
            "false attempt to yield across a C-call boundary",
          );
        },
        { globals: { tools: toolsGlobal(true) } },
      );
    });

    it("describes raised values that are not text", async () => {
      await withPreludes([kit("error({})")], async (_vm, outcome) => {
        expect(outcome.ok === false && outcome.reason === "load" && outcome.message).toMatch(
          /^Pack `kit`: its prelude failed to load: \(error object is a table value\)\. A prelude/,
        );
      });
    });

    it("stops at the first failing prelude, after the earlier ones installed", async () => {
      await withPreludes(
        [
          { pack: "alpha", source: "first = 1" },
          { pack: "beta", source: "error('no', 0)" },
          { pack: "gamma", source: "third = 3" },
        ],
        async (vm, outcome) => {
          expect(outcome.ok === false && outcome.reason === "load" && outcome.pack).toBe("beta");
          expect(await blockValue(vm, "return tostring(first) .. tostring(third)")).toBe("1nil");
        },
      );
    });

    it("fails on memory exhaustion inside the prelude", async () => {
      await withPreludes(
        [kit("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 64) .. i end")],
        async (_vm, outcome) => {
          expect(outcome.ok === false && outcome.reason === "load" && outcome.message).toMatch(
            /^Pack `kit`: its prelude failed to load: not enough memory\. A prelude only/,
          );
        },
        { luaMemoryBytes: 2 * 1024 * 1024 },
      );
    });
  });

  describe("global names", () => {
    async function refusal(preludes: readonly PreludeChunk[]): Promise<string> {
      return withPreludes(preludes, async (_vm, outcome) => {
        if (outcome.ok || outcome.reason !== "refused") {
          throw new Error(`not refused: ${JSON.stringify(outcome)}`);
        }
        return outcome.message;
      });
    }

    it("refuses reserved names of each class, the first in sorted order", async () => {
      expect(await refusal([kit("zeta = 1\ntools = 1\nstore = 1\nalpha = 1")])).toBe(
        "Pack `kit`: its prelude defines the global `store`, which is reserved as an Engine global",
      );
      expect(await refusal([kit("pairs = 1")])).toBe(
        "Pack `kit`: its prelude defines the global `pairs`, which is reserved as a Lua standard-library global",
      );
      expect(await refusal([kit("_ENV['global'] = 1")])).toBe(
        "Pack `kit`: its prelude defines the global `global`, which is reserved as a Lua keyword",
      );
      expect(await refusal([kit("_ENV['end'] = 1")])).toBe(
        "Pack `kit`: its prelude defines the global `end`, which is reserved as a Lua keyword",
      );
      for (const name of ["prose", "argv", "item", "ui", "messages", "var", "_G"]) {
        expect(await refusal([kit(`${name} = 1`)])).toContain(
          `the global \`${name}\`, which is reserved as`,
        );
      }
    });

    it("refuses a global an earlier prelude defines, naming both Packs", async () => {
      expect(
        await refusal([
          { pack: "alpha", source: "shared = 1" },
          { pack: "beta", source: "shared = 2" },
        ]),
      ).toBe(
        "Pack `beta`: its prelude defines the global `shared`, which Pack `alpha`'s prelude already defines",
      );
    });

    it("refuses keys that are not global names", async () => {
      expect(await refusal([kit("_ENV[1] = 'x'")])).toBe(
        "Pack `kit`: its prelude defines a global with a key of type `integer`, which is not a global name",
      );
      expect(await refusal([kit("_ENV[2.5] = 'x'")])).toBe(
        "Pack `kit`: its prelude defines a global with a key of type `number`, which is not a global name",
      );
      expect(await refusal([kit("_ENV[true] = 'x'")])).toBe(
        "Pack `kit`: its prelude defines a global with a key of type `boolean`, which is not a global name",
      );
      expect(await refusal([kit("_ENV['\\xff'] = 'x'")])).toBe(
        "Pack `kit`: its prelude defines a global whose name is not valid UTF-8",
      );
    });

    it("installs none of a refused prelude's globals and leaves the Engine's in place", async () => {
      await withPreludes(
        [kit("aaa = 1\ntools = {}")],
        async (vm, outcome) => {
          expect(outcome.ok).toBe(false);
          expect(await blockValue(vm, "return tostring(aaa) .. '|' .. tools.call('x')")).toBe(
            "nil|called x",
          );
        },
        { globals: { tools: toolsGlobal() } },
      );
    });

    it("accepts names that are neither reserved nor identifiers", async () => {
      await withPreludes([kit("_ENV['my key'] = 'spaced'\nweb_fetch = 'wire'")], async (vm) => {
        expect(await blockValue(vm, "return _G['my key'] .. '|' .. web_fetch")).toBe("spaced|wire");
      });
    });
  });

  describe("cancellation", () => {
    it("ends as cancelled when the VM is cancelled while a store call waits", async () => {
      await withPreludes(
        [kit("store.write('a.txt', 'x')\nafter = 1")],
        async (_vm, outcome) => {
          expect(outcome).toEqual({ ok: false, reason: "cancelled" });
        },
        {
          globals: {
            store: {
              write: (call) => {
                call.vm.cancel();
                return new Promise(() => undefined);
              },
            },
          },
        },
      );
    });

    it("ends as cancelled when a loading prelude loops until the cancel source fires", async () => {
      let polls = 0;
      await withPreludes(
        [kit("while true do end")],
        async (_vm, outcome) => {
          expect(outcome).toEqual({ ok: false, reason: "cancelled" });
        },
        { shouldCancel: () => ++polls > 3, shouldCancelEvery: 1 },
      );
    });
  });

  it("rejects for a closed VM", async () => {
    await withPreludes([], async (vm) => {
      vm.close();
      await expect(installPreludes(vm, [kit("x = 1")])).rejects.toThrow("closed");
    });
  });
});
