-- The Engine Lua core of a section VM, run once per VM by installEngineLua
-- (install-engine-lua.ts) through runPrivileged with `(P, H, argv_json, frozen)`: the private
-- table, the host function `H(op, ...)`, the run's argv as JSON text, and whether argv is sealed
-- (everywhere but the H1 pass). It captures the private originals of `load`, `rawget`, ... in
-- upvalues prompt code can never reach.
--
-- It stays small: it serves `prose` and `argv` through the Engine guard on `_G`
-- (`P.global_guard`) and installs `require`. The prose renderer (prose.lua), argv's sealed view
-- (seal.lua) and `require` itself (require.lua) are parts loaded on first use
-- (`H('code', name)`), so a section that never reads prose, argv or a library pays only for this.
--
-- - `prose` renders its pending template on every read (docs/design/prose.md).
-- - `argv` is json.decode of the run's argv text at its first read: writable in the H1 pass, a
--   sealed view everywhere else; `P.runvil_argv()` encodes it back (json.encode's rules).
-- - `require` loads library sections (docs/design/require.md).
local P, H, argv_json, frozen = ...
local G = P._G
local rawget, rawset, load = P.rawget, P.rawset, P.load
local json = rawget(G, 'json')
local kit = {
  P = P,
  H = H,
  G = G,
  concat = G.table.concat,
  decode = json.decode,
  encode = json.encode,
  null = json.null,
}
local function lazy(name)
  local fn
  return function(...)
    -- A binary chunk keeps the name it was compiled under, runvil/{name}.lua.
    if fn == nil then fn = load(H('code', name), '=' .. name, 'b', G)(kit) end
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
