import { describe, expect, it } from "vitest";
import { ensureSealedTargets } from "./private-values";
import { errorOf, privileged, resultOf, withJsonVm } from "./test-support";

/**
 * Defines `view(data, label)` for the block: an empty proxy with a function __index, a
 * __metatable label, registered in P.sealed_targets, as var's views are.
 */
const VIEW_MAKER = `local P = ...
local targets = P.sealed_targets
P.rawset(P._G, 'view', function(data, label)
  local proxy = P.setmetatable({}, {
    __index = function(_, k) return data[k] end,
    __newindex = function() P.error('read-only', 2) end,
    __metatable = label or 'var',
  })
  targets[proxy] = data
  return proxy
end)`;

describe("sealed views in sealed_targets", () => {
  it("encode the data table in the view's place, nested views too", async () => {
    await withJsonVm(async (vm) => {
      privileged(vm, VIEW_MAKER);
      expect(
        await resultOf(
          vm,
          `local inner = view({ n = 1, empty = json.array() })
local outer = view({ inner = inner, list = view({ inner, 2 }) })
return json.encode(outer) .. ' ' .. json.encode({ outer })`,
        ),
      ).toBe(
        '{"inner":{"empty":[],"n":1},"list":[{"empty":[],"n":1},2]} [{"inner":{"empty":[],"n":1},"list":[{"empty":[],"n":1},2]}]',
      );
    });
  });

  it("refuse json.array, and keep an empty list's marker through the view", async () => {
    await withJsonVm(async (vm) => {
      privileged(vm, VIEW_MAKER);
      expect(await errorOf(vm, "json.array, view({})")).toBe(
        "lua|json.array: the table already has a metatable",
      );
      expect(await resultOf(vm, "return json.encode(view(json.array()))")).toBe("[]");
      expect(await resultOf(vm, "return json.encode_lines(view(json.array({ 1, 2 })))")).toBe(
        "1\n2\n",
      );
    });
  });

  it("add no nesting level but count toward the value budget", async () => {
    await withJsonVm(
      async (vm) => {
        privileged(vm, VIEW_MAKER);
        // 1 MiB of memory: a budget of 131072 values. A binary tree of 16 shared levels is
        // 131071 values; one view read through adds 2 (the view and its data table).
        expect(
          await resultOf(
            vm,
            `local t = {} for i = 1, 16 do t = { t, t } end
local ok1 = pcall(json.encode, { t })
local ok2, err2 = pcall(json.encode, { t, 1 })
local ok3, err3 = pcall(json.encode, view({ t }))
local ok4 = pcall(json.encode, view(t))
return tostring(ok1) .. '|' .. tostring(err2) .. '|' .. tostring(err3) .. '|' .. tostring(ok4)`,
          ),
        ).toBe(
          "true|json.encode: value is too large to encode|json.encode: value is too large to encode|true",
        );
      },
      { luaMemoryBytes: 1024 * 1024 },
    );
  });

  it("is shared: ensureSealedTargets before or after installJson gives one table", async () => {
    await withJsonVm(async (vm) => {
      ensureSealedTargets(vm);
      ensureSealedTargets(vm);
      const outcome = vm.runPrivileged({
        source: `local P = ...
local first = P.sealed_targets
return P.rawequal(first, P.sealed_targets), P.getmetatable(first).__mode`,
        chunkName: "=check",
      });
      expect(outcome).toEqual({ ok: true, values: [true, "k"] });
      privileged(vm, VIEW_MAKER);
      expect(await resultOf(vm, "return json.encode(view({ a = 1 }))")).toBe('{"a":1}');
    });
  });
});

describe("sealed views by the chapter's rule", () => {
  it("encode a table __index in the view's place, only when the view has no entries", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local data = { a = 1 }
local view = setmetatable({}, { __index = data, __metatable = false })
local notView = setmetatable({ b = 2 }, { __index = data, __metatable = 'x' })
return json.encode({ view, notView })`,
        ),
      ).toBe('[{"a":1},{"b":2}]');
    });
  });

  it("cannot be read when __index is a function, with or without a label", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await errorOf(
          vm,
          "json.encode, { s = setmetatable({}, { __index = function() end, __metatable = {} }) }",
        ),
      ).toBe(
        "lua|json.encode: value.s cannot be read; copy the fields you need into a plain table",
      );
      expect(
        await errorOf(
          vm,
          "json.encode, setmetatable({}, { __index = function() end, __metatable = 'var is read-only' })",
        ),
      ).toBe(
        "lua|json.encode: value cannot be read (var is read-only); copy the fields you need into a plain table",
      );
      expect(
        await errorOf(
          vm,
          "json.encode_lines, setmetatable({}, { __index = function() end, __metatable = 'x' }), { debug = true }",
        ),
      ).toBe(
        "lua|json.encode_lines: value cannot be read (x); copy the fields you need into a plain table",
      );
    });
  });

  it("report views that lead back to themselves as containing themselves", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await errorOf(
          vm,
          `(function()
  local a, b = {}, {}
  setmetatable(a, { __index = b, __metatable = 1 })
  setmetatable(b, { __index = a, __metatable = 1 })
  return json.encode, { a }
end)()`,
        ),
      ).toBe("lua|json.encode: value[1] contains itself");
    });
  });
});
