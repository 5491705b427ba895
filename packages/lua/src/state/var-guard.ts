import { runtimeError } from "../errors/runtime-error";
import { nonFiniteText } from "../json/number-text";
import type { JsonPathStep } from "../json/path";
import { isValidUtf8At } from "../json-lua/table-keys";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import { VAR_REFUSALS, VAR_STRING_KEY_MESSAGE, varMustBeJsonDataMessage } from "./messages";
import { stringAt, typeNameAt } from "./raw-lua";
import {
  childPath,
  GUARD_KIT,
  GUARD_LEVEL,
  GUARD_PATH,
  GUARD_STORAGE,
  KIT_NULL,
  type VarContext,
} from "./var-context";
import { VarConverter } from "./var-convert";

/** Stack indices of `__newindex`'s arguments. */
const KEY = 2;
const VALUE = 3;

/**
 * The guard: the `__newindex` of every var view, a C closure whose upvalues are the view's
 * storage table, path, level and the VM's kit (see var-context.ts). It checks each write at the
 * assigning statement and raises its refusal as a plain runtime error (kind `lua`, message
 * `runtime error: ...`); a write that passes is stored raw in the storage table, so after every
 * write the storage is JSON data:
 *
 * - var itself takes string keys only; a nested table takes a string key unless it is a list
 *   (`mixes list items and named keys`, or `has a string key` for a marked list), and an integer
 *   key unless it holds named keys, from 1 to its length + 1 (`is missing list item [n+1]`);
 *   only its last item can be removed (`is missing list item [k]`); other keys are refused
 *   (`has a {type} key`), and a string key must be valid UTF-8;
 * - a value must be JSON data: a string (valid UTF-8), a finite number, a boolean, json.null, or
 *   a table, which is checked and copied by the VarConverter; nil removes the key.
 */
export function createGuard(ctx: VarContext): RawCFunction {
  const { kernel, x } = ctx;
  let converter: VarConverter | undefined;

  const path = (L: LuaState, step?: JsonPathStep): string => {
    const text = kernel.readText(L, GUARD_PATH);
    return step === undefined ? text : childPath(text, step);
  };
  const keyStep = (L: LuaState): JsonPathStep => {
    const [ptr, length] = stringAt(kernel, L, KEY);
    return kernel.heap.u8().slice(ptr, ptr + length);
  };
  const fail = (message: string): never => {
    throw runtimeError(message);
  };

  /**
   * Checks the value and leaves what to store at VALUE (a table's copy replaces it there);
   * `step` names the key for messages.
   */
  const checkStored = (L: LuaState, level: number, step: () => JsonPathStep): void => {
    switch (x.lua_type(L, VALUE)) {
      case LuaTypeTag.STRING: {
        const [ptr, length] = stringAt(kernel, L, VALUE);
        if (!isValidUtf8At(kernel.heap.u8(), ptr, ptr + length)) {
          fail(VAR_REFUSALS.notUtf8(path(L, step())));
        }
        return;
      }
      case LuaTypeTag.NUMBER:
        if (x.lua_isinteger(L, VALUE) === 0) {
          const value = x.lua_tonumberx(L, VALUE, 0);
          if (!Number.isFinite(value)) {
            fail(VAR_REFUSALS.notFinite(path(L, step()), nonFiniteText(value)));
          }
        }
        return;
      case LuaTypeTag.BOOLEAN:
        return;
      case LuaTypeTag.LIGHTUSERDATA: {
        x.lua_rawgeti(L, GUARD_KIT, KIT_NULL);
        const isNull = x.lua_rawequal(L, VALUE, -1) !== 0;
        x.lua_settop(L, VALUE);
        if (!isNull) fail(varMustBeJsonDataMessage(path(L, step()), "lightuserdata"));
        return;
      }
      case LuaTypeTag.TABLE:
        converter ??= new VarConverter(ctx);
        converter.convert(L, VALUE, path(L, step()), level + 1, GUARD_KIT);
        x.lua_rotate(L, VALUE, 1);
        x.lua_settop(L, VALUE);
        return;
      default:
        fail(varMustBeJsonDataMessage(path(L, step()), typeNameAt(x, L, VALUE)));
    }
  };

  /** 0: not a list; 1: a list with items; 2: a marked list (json's marker). */
  const listKind = (L: LuaState): number => {
    if (ctx.isMarked(L, GUARD_STORAGE, GUARD_KIT)) return 2;
    const first = x.lua_rawgeti(L, GUARD_STORAGE, 1n);
    x.lua_settop(L, -2);
    return first === LuaTypeTag.NIL ? 0 : 1;
  };

  const stringKeyed = (L: LuaState, level: number): number => {
    const [ptr, length] = stringAt(kernel, L, KEY);
    if (!isValidUtf8At(kernel.heap.u8(), ptr, ptr + length)) {
      fail(VAR_REFUSALS.keyNotUtf8(path(L, keyStep(L))));
    }
    const valueIsNil = x.lua_type(L, VALUE) === LuaTypeTag.NIL;
    if (level > 1) {
      const kind = listKind(L);
      if (kind !== 0) {
        if (valueIsNil) return 0;
        fail(kind === 2 ? VAR_REFUSALS.keyType(path(L), "string") : VAR_REFUSALS.mixes(path(L)));
      }
    }
    if (!valueIsNil) checkStored(L, level, () => keyStep(L));
    x.lua_settop(L, VALUE);
    x.lua_rawset(L, GUARD_STORAGE); // storage[key] = value, both already on the stack
    return 0;
  };

  const integerKeyed = (L: LuaState, level: number, index: number): number => {
    const length = Number(x.lua_rawlen(L, GUARD_STORAGE));
    const valueIsNil = x.lua_type(L, VALUE) === LuaTypeTag.NIL;
    if (length === 0 && !ctx.isMarked(L, GUARD_STORAGE, GUARD_KIT)) {
      x.lua_pushnil(L);
      if (x.lua_next(L, GUARD_STORAGE) !== 0) {
        x.lua_settop(L, -3);
        if (valueIsNil) return 0;
        fail(VAR_REFUSALS.mixes(path(L)));
      }
    }
    if (valueIsNil) {
      if (index === length) {
        x.lua_pushnil(L);
        x.lua_rawseti(L, GUARD_STORAGE, BigInt(length));
      } else if (index >= 1 && index < length) {
        fail(VAR_REFUSALS.missingItem(path(L), index));
      }
      return 0;
    }
    if (index < 1 || index > length + 1) fail(VAR_REFUSALS.missingItem(path(L), length + 1));
    checkStored(L, level, () => index);
    x.lua_settop(L, VALUE);
    x.lua_rawseti(L, GUARD_STORAGE, BigInt(index));
    return 0;
  };

  return (L: LuaState): number => {
    const level = x.lua_tonumberx(L, GUARD_LEVEL, 0);
    const keyType = x.lua_type(L, KEY);
    if (keyType === LuaTypeTag.STRING) return stringKeyed(L, level);
    if (level === 1) fail(VAR_STRING_KEY_MESSAGE);
    if (keyType === LuaTypeTag.NUMBER) {
      const key = x.lua_tonumberx(L, KEY, 0);
      if (!Number.isInteger(key)) fail(VAR_REFUSALS.keyType(path(L), "number"));
      return integerKeyed(L, level, key);
    }
    if (keyType === LuaTypeTag.LIGHTUSERDATA) fail(VAR_REFUSALS.keyType(path(L), "lightuserdata"));
    return fail(VAR_REFUSALS.keyType(path(L), typeNameAt(x, L, KEY)));
  };
}
