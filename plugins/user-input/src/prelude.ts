/**
 * The Lua prelude of runvil/user-input, exactly as the tools chapter ("Pack preludes") gives it.
 * It runs in every section VM of a prompt that declares the Pack, with `...` holding the Pack id,
 * and defines the `input` table whose `ask` helper calls the Pack's own ask tool.
 */
export const USER_INPUT_PRELUDE = `local pack = ...
input = {}
function input.ask(...)
  if select('#', ...) > 0 then
    error("input.ask takes no arguments", 2)
  end
  return tools.call(pack .. "/ask")
end
`;
