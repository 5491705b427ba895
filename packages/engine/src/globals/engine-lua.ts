import type { LuaRuntime } from "../lua";

/**
 * Engine Lua, run through `LuaVm.runPrivileged` so it can capture the private originals of
 * `load`, `rawget`, `setmetatable`, … in upvalues prompt code can never reach. The host side is
 * one host function `H(op, ...)` (globals/install-engine-lua.ts).
 *
 * The core runs once per section VM and stays small: it serves `prose` and `argv` through the
 * Engine guard on `_G` (`P.global_guard`) and installs `require`. The prose renderer, `require`
 * itself and argv's sealed view are parts loaded on first use (`H('code', name)`), so a section
 * that never reads prose, argv or a library pays only for the core.
 *
 * - `prose` renders its pending template on every read (docs/design/prose.md).
 * - `argv` is json.decode of the run's argv text at its first read: writable in the H1 pass,
 *   a sealed view everywhere else; `P.runvil_argv()` encodes it back (json.encode's rules).
 * - `require` loads library sections (docs/design/require.md).
 */
export const ENGINE_CORE_LUA = `
local P, H, argv_json, frozen = ...
local G = P._G
local rawget, rawset, load = P.rawget, P.rawset, P.load
local json = rawget(G, 'json')
local kit = {
  P = P, H = H, G = G, concat = G.table.concat,
  decode = json.decode, encode = json.encode, null = json.null,
}
local function lazy(name)
  local fn
  return function(...)
    if fn == nil then fn = load(H('code', name), '=runvil ' .. name, 'b', G)(kit) end
    return fn(...)
  end
end

local argv, ready, seal = nil, false, lazy('seal')
local function read_argv()
  if not ready then
    argv = kit.decode(argv_json)
    if frozen then argv = seal(argv) end
    ready = true
  end
  return argv
end
local function assign_argv(_, value)
  if frozen then H('refuse_argv') end
  argv, ready = value, true
end
rawset(P, 'runvil_argv', function() return kit.encode(read_argv()) end)

local render = lazy('prose')
local function prose_fail(kind, index, t) H('fail', kind, index, t) end
local guard = rawget(P, 'global_guard')
local function read_prose() return render(H('template'), prose_fail) end
guard.serve('prose', read_prose, function() H('refuse_prose') end)
guard.serve('argv', read_argv, assign_argv)
rawset(G, 'require', lazy('require'))
`;

/**
 * The placeholder renderer: returns `render(parts, fail)`, which renders a template (literals at
 * odd indexes, placeholder paths at even ones) with this VM's globals, `var` and `sys`, calling
 * `fail(kind, index, type)` for a placeholder that cannot render (`fail` raises). The `prose`
 * global renders the running block's pending prose with it; `prompt.section` and `prompt.list`
 * load their own copy (globals/prompt-reads-lua.ts).
 */
const PROSE_LUA = `
local kit = ...
local P, G, concat, encode, null = kit.P, kit.G, kit.concat, kit.encode, kit.null
local rawget, type, tostring, pcall = P.rawget, P.type, P.tostring, P.pcall

local function value_of(path, index, fail)
  local root = path[1]
  local v, first
  if root == 'prose' then
    fail('Recursive', index)
  elseif root == 'sys' then
    local sys, name = rawget(G, 'sys'), path[2]
    v, first = sys, 3
    if name ~= nil then
      local ok, found = pcall(function() return sys[name] end)
      v = ok and found or nil
    end
  elseif root == 'var' then
    v, first = rawget(G, 'var'), 2
  else
    v, first = G[root], 2
  end
  for i = first, #path do
    if v == nil or v == null then return v end
    if type(v) ~= 'table' then return nil end
    v = v[path[i]]
  end
  return v
end

return function(parts, fail)
  local out = {}
  for i = 1, #parts do
    local part = parts[i]
    if i % 2 == 1 then
      out[i] = part
    else
      local v = value_of(part, i, fail)
      local t = type(v)
      if v == nil then
        fail('MissingKey', i)
      elseif v == null then
        fail('NullValue', i)
      elseif t == 'string' then
        out[i] = v
      elseif t == 'number' or t == 'boolean' then
        out[i] = tostring(v)
      elseif t == 'table' then
        out[i] = encode(v)
      else
        fail('NotText', i, t)
      end
    end
  end
  return concat(out)
end
`;

/** argv's sealed view: returns `seal(data)`, a read-only view json.encode reads through. */
const SEAL_LUA = `
local kit = ...
local P, H = kit.P, kit.H
local rawget, type, setmetatable = P.rawget, P.type, P.setmetatable
local targets, views = rawget(P, 'sealed_targets'), setmetatable({}, { __mode = 'k' })
local function none() return nil end
local function empty_pairs(t) return none, t, nil end
local function refuse() H('refuse_argv') end
local seal
seal = function(data)
  local view = views[data]
  if view ~= nil then return view end
  view = setmetatable({}, {
    __index = function(_, k)
      local v = rawget(data, k)
      if type(v) == 'table' then return seal(v) end
      return v
    end,
    __newindex = refuse,
    __pairs = empty_pairs,
    __metatable = 'argv is sealed',
  })
  views[data] = view
  targets[view] = data
  return view
end
return seal
`;

/** require: returns `require(target)`. */
const REQUIRE_LUA = `
local kit = ...
local P, H, G = kit.P, kit.H, kit.G
local setmetatable, load = P.setmetatable, P.load
local loaded, loading = {}, {}
return function(target)
  local key, blocks = H('lookup', target)
  local cached = loaded[key]
  if cached ~= nil then return cached end
  if loading[key] then H('cycle', key) end
  loading[key] = true
  H('started', key)
  local done = false
  local guard_close <close> = setmetatable({}, { __close = function()
    loading[key] = nil
    if not done then H('finished', key, false) end
  end })
  local result
  for i = 1, #blocks do
    local r = load(blocks[i], '=library', 'b', G)()
    if r ~= nil then
      result = r
      break
    end
  end
  if result == nil then result = true end
  loaded[key] = result
  done = true
  H('finished', key, true)
  return result
end
`;

/** The chunk name the Engine Lua core runs under. */
export const ENGINE_LUA_CHUNK_NAME = "=runvil";

/** The parts the core loads on first use, by name. */
export const ENGINE_LUA_PARTS = {
  prose: PROSE_LUA,
  seal: SEAL_LUA,
  require: REQUIRE_LUA,
} as const;

/** A part's name. */
export type EngineLuaPart = keyof typeof ENGINE_LUA_PARTS;

/** The core and every part, compiled once per runtime. */
export interface EngineLuaBytecode {
  readonly core: Uint8Array;
  readonly parts: Readonly<Record<EngineLuaPart, Uint8Array>>;
}

const compiled = new WeakMap<LuaRuntime, EngineLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the Engine's own Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The Engine Lua's bytecode, compiled once per runtime. */
export function engineLuaBytecode(runtime: LuaRuntime): EngineLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, ENGINE_CORE_LUA, ENGINE_LUA_CHUNK_NAME),
      parts: {
        prose: compile(runtime, PROSE_LUA, "=runvil prose"),
        seal: compile(runtime, SEAL_LUA, "=runvil seal"),
        require: compile(runtime, REQUIRE_LUA, "=runvil require"),
      },
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
