import { Compiler } from "../compile";
import type { LuaModule } from "../module";
import { RawLua } from "../raw-api";

/** The chunk name of {@link ITERATION_LUA} (tracebacks show pairs' frame under it). */
export const ITERATION_CHUNK_NAME = "=runvil.iteration";

/** The private-table field that hands the order C function to {@link ITERATION_LUA}. */
export const ORDER_PRIVATE_KEY = "iteration_order";

/**
 * The Engine Lua that installs the deterministic `pairs`, run once per VM with the private
 * table as its argument. `order(t)` (a C function, taken from the private table and removed
 * from it) answers `keys, n, border` for a table without `__pairs` (its hash-part keys in the
 * deterministic order, their count, and the array part's border), `false, mm` when `t` has a
 * `__pairs` metafield, and nothing for another value.
 *
 * The iterator walks 1..border by index, then the key list, reading each value raw when it gets
 * there and skipping keys that read nil, so cleared keys are skipped, new keys are not visited
 * and values are read live. It keeps its own position and ignores its arguments.
 */
export const ITERATION_LUA = `
local P = ...
local order = P.${ORDER_PRIVATE_KEY}
P.${ORDER_PRIVATE_KEY} = nil
local rawget, rawset, type, error, select = P.rawget, P.rawset, P.type, P.error, P.select

local function pairs(...)
  local t = ...
  local keys, n, border = order(t)
  if keys then
    local i, j = 0, 0
    return function()
      while i < border do
        i = i + 1
        local v = rawget(t, i)
        if v ~= nil then return i, v end
      end
      while j < n do
        j = j + 1
        local k = keys[j]
        local v = rawget(t, k)
        if v ~= nil then return k, v end
      end
      return nil, nil
    end, t, nil
  end
  if keys == false then
    if type(n) == "function" then return n(t) end
    error("attempt to call a " .. type(n) .. " value (metamethod '__pairs')", 0)
  end
  local got = select("#", ...) == 0 and "no value" or type(t)
  error("bad argument #1 to 'pairs' (table expected, got " .. got .. ")", 2)
end

rawset(_ENV, "pairs", pairs)
`;

const compiled = new WeakMap<LuaModule, Uint8Array>();

/**
 * The bytecode of {@link ITERATION_LUA}, compiled once per wasm module and reused by every VM
 * (loading bytecode is several times cheaper than parsing the source).
 */
export function iterationBytecode(module: LuaModule): Uint8Array {
  let bytecode = compiled.get(module);
  if (bytecode === undefined) {
    const result = new Compiler(new RawLua(module)).compile(ITERATION_LUA, ITERATION_CHUNK_NAME);
    if (!result.ok) throw new Error(`runvil.iteration does not compile: ${result.diagnostic}`);
    bytecode = result.bytecode;
    compiled.set(module, bytecode);
  }
  return bytecode;
}
