import type { LuaRuntime } from "../lua";

/**
 * The Engine Lua behind the `prompt` global (docs/design/prompt-reads.md), run through
 * `LuaVm.runPrivileged` with the private table, the host function `H(op, ...)`
 * (globals/prompt-reads.ts) and the text `getmetatable(prompt)` returns.
 *
 * The core runs once per VM at setup step 5 and stays small: it captures what the reads need
 * before any prompt code runs (json.array, json.encode, json.null, table.concat, math.type) and
 * installs `prompt` as a sealed, empty table. Its `__index` is a function (so json.encode and
 * var cannot read through it) that loads the implementation on the first member read; a
 * section that never reads a section pays only for the core.
 */
export const PROMPT_READS_CORE_LUA = `
local P, H, sealed_text = ...
local G = P._G
local rawget, rawset = P.rawget, P.rawset
local json = rawget(G, 'json')
local kit = {
  P = P, H = H, G = G,
  concat = rawget(G, 'table').concat, math_type = rawget(G, 'math').type,
  array = json.array, encode = json.encode, null = json.null,
}
local members
local prompt = P.setmetatable({}, {
  __index = function(_, k)
    if members == nil then members = P.load(H('code', 'reads'), '=runvil prompt', 'b', {})(kit) end
    return members[k]
  end,
  __newindex = function(_, k) H('fail', 'read_only', k) end,
  __metatable = sealed_text,
})
local targets = rawget(P, 'sealed_targets')
if targets ~= nil then rawset(targets, prompt, false) end
rawset(G, 'prompt', prompt)
`;

/**
 * The implementation: returns the members table (`section`, `list`). The Lua side checks the
 * arguments' Lua shapes (argument count, the options table, integers against floats) and
 * renders; the host resolves the target, holds every text and raises every refusal. The
 * placeholder renderer is the `prose` global's (globals/engine-lua.ts), loaded on the first read
 * that renders, with a `fail` that names the placeholder itself. Loaded with an empty
 * environment: everything it uses comes from the kit.
 */
export const PROMPT_READS_IMPL_LUA = `
local kit = ...
local P, H, concat, math_type, array = kit.P, kit.H, kit.concat, kit.math_type, kit.array
local rawget, type, select, next, tostring, load =
  P.rawget, P.type, P.select, P.next, P.tostring, P.load

local renderer
local function render(parts)
  if renderer == nil then renderer = load(H('code', 'prose'), '=runvil prose', 'b', {})(kit) end
  return renderer(parts, function(kind, index, t)
    H('render_fail', kind, '{{ ' .. concat(parts[index], '.') .. ' }}', t)
  end)
end

local function tname(v)
  local t = type(v)
  if t == 'number' and math_type(v) == 'integer' then return 'integer' end
  return t
end

-- json.encode's fixed key order: booleans, numbers by value, strings bytewise, then other types
-- by type name; a key is named by its text (strings, integers) or its type name.
local function rank(k)
  local t = type(k)
  if t == 'boolean' then return 0, k and 1 or 0 end
  if t == 'number' then return 1, k end
  if t == 'string' then return 2, k end
  return 3, t
end
local function key_name(k)
  local t = type(k)
  if t == 'string' then return k end
  if t == 'number' and math_type(k) == 'integer' then return tostring(k) end
  return t
end

local function read_raw_option(fn, options)
  if options == nil then return false end
  if type(options) ~= 'table' then H('fail', 'options', fn, tname(options)) end
  local bad, bad_group, bad_value
  for k in next, options do
    if k ~= 'raw' then
      local group, value = rank(k)
      if bad == nil or group < bad_group or (group == bad_group and value < bad_value) then
        bad, bad_group, bad_value = k, group, value
      end
    end
  end
  if bad ~= nil then H('fail', 'unknown_option', fn, key_name(bad)) end
  local raw = rawget(options, 'raw')
  if raw ~= nil and type(raw) ~= 'boolean' then H('fail', 'raw_option', fn, tname(raw)) end
  return raw == true
end

local function read(fn, ...)
  if select('#', ...) > 2 then H('fail', 'takes', fn) end
  local target, options = ...
  if type(target) ~= 'string' then H('fail', 'target') end
  local raw = read_raw_option(fn, options)
  local found = H('read', fn, target, raw)
  if fn == 'section' then
    if raw then return found end
    return render(found)
  end
  local items = {}
  for i = 1, #found do
    if raw then items[i] = found[i] else items[i] = render(found[i]) end
  end
  return array(items)
end

return {
  section = function(...) return read('section', ...) end,
  list = function(...) return read('list', ...) end,
}
`;

/** The chunk name the prompt reads' Lua runs under. */
export const PROMPT_READS_LUA_CHUNK_NAME = "=runvil prompt";

/** The core and the implementation, compiled once per runtime. */
export interface PromptReadsBytecode {
  readonly core: Uint8Array;
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, PromptReadsBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the Engine's own Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The prompt reads' Lua, compiled once per runtime. */
export function promptReadsLuaBytecode(runtime: LuaRuntime): PromptReadsBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, PROMPT_READS_CORE_LUA, PROMPT_READS_LUA_CHUNK_NAME),
      impl: compile(runtime, PROMPT_READS_IMPL_LUA, "=runvil prompt"),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
