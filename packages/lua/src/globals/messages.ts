import { FINALIZERS_MESSAGE } from "../vm/setmetatable-guard";

/**
 * `setmetatable: finalizers (__gc) are not available in the sandbox`: what setmetatable raises,
 * after the calling line's position, for a metatable with a `__gc` field, whatever the table.
 */
export { FINALIZERS_MESSAGE };

/**
 * What `setmetatable(_G, mt)` raises, after the calling line's position, when `mt` has a
 * `__mode` field: `_G` never becomes weak.
 */
export const WEAK_GLOBALS_MESSAGE = "setmetatable: weak tables (__mode) are not available for _G";

/**
 * Lua's own refusal to replace a metatable that has a `__metatable` field, raised after the
 * calling line's position; `_G` follows the same rule for an author metatable.
 */
export const PROTECTED_METATABLE_MESSAGE = "cannot change a protected metatable";

/** The refusal for assigning a served name that was registered without an assign handler. */
export function readOnlyGlobalMessage(name: string): string {
  return `${name} is read-only`;
}
