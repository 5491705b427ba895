/**
 * json.array as a raw C function.
 */

import { argumentError } from "../engine-error";
import { ARRAY_HAS_METATABLE_MESSAGE, arrayExpectsTableMessage } from "../json/messages";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaExports } from "../wasm-exports";
import { engineTypeName } from "./lua-api";

/**
 * json.array: with no argument or nil, a new empty marked list; with a table that has no
 * metatable, the same table marked in place; with a marked list, the list unchanged. Any other
 * metatable (a sealed view's, `_G`'s, one set by the prompt) raises
 * `json.array: the table already has a metatable`, and any other value
 * `json.array expects a table or no argument, got {type}`. The list marker is at `markerIndex`.
 */
export function createArrayFunction(x: LuaExports, markerIndex: number): RawCFunction {
  return (L: LuaState): number => {
    const type = x.lua_type(L, 1);
    if (type === LuaTypeTag.NONE || type === LuaTypeTag.NIL) {
      x.lua_createtable(L, 0, 0);
      x.lua_pushvalue(L, markerIndex);
      x.lua_setmetatable(L, -2);
      return 1;
    }
    if (type !== LuaTypeTag.TABLE) {
      throw argumentError(arrayExpectsTableMessage(engineTypeName(x, L, 1)));
    }
    if (x.lua_getmetatable(L, 1) !== 0) {
      if (x.lua_rawequal(L, -1, markerIndex) === 0)
        throw argumentError(ARRAY_HAS_METATABLE_MESSAGE);
    } else {
      x.lua_pushvalue(L, markerIndex);
      x.lua_setmetatable(L, 1);
    }
    x.lua_settop(L, 1);
    return 1;
  };
}
