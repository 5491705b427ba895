/**
 * The messages of Pack preludes, as tools.txt words them ("Pack preludes", from "Sealed prelude
 * tables" to "Global names a prelude cannot take"). Messages marked "decided" fill gaps in the
 * chapter (see docs/design/preludes.md).
 */

export { preludeReservedNameMessage } from "../globals/reserved-names";

/** The rule every prelude load failure ends with. */
export const PRELUDE_LOAD_RULE =
  "A prelude only defines functions; it must not call tools while loading.";

/** The chunk name a Pack's prelude is loaded under, so Lua names it `pack:{pack}`. */
export function preludeChunkName(pack: string): string {
  return `=pack:${pack}`;
}

/**
 * A prelude that does not compile, raises while loading, or calls a tool while loading:
 * ``Pack `{pack}`: its prelude failed to load: {message}. A prelude only defines functions; it
 * must not call tools while loading.``, then the Lua traceback on the next lines when there is
 * one.
 */
export function preludeLoadFailureMessage(pack: string, message: string, traceback = ""): string {
  const headline = `Pack \`${pack}\`: its prelude failed to load: ${message}. ${PRELUDE_LOAD_RULE}`;
  return traceback === "" ? headline : `${headline}\n${traceback}`;
}

/**
 * Two preludes define the same global: ``Pack `{pack}`: its prelude defines the global `{name}`,
 * which Pack `{owner}`'s prelude already defines``, where `pack` installs later than `owner`.
 */
export function preludeCollisionMessage(pack: string, name: string, owner: string): string {
  return `Pack \`${pack}\`: its prelude defines the global \`${name}\`, which Pack \`${owner}\`'s prelude already defines`;
}

/**
 * Decided: a prelude assigns a global under a key that is not a string, such as `_ENV[1] = 1`:
 * ``Pack `{pack}`: its prelude defines a global with a key of type `{type}`, which is not a
 * global name``, with `integer` and `number` (a float) told apart.
 */
export function preludeKeyTypeMessage(pack: string, type: string): string {
  return `Pack \`${pack}\`: its prelude defines a global with a key of type \`${type}\`, which is not a global name`;
}

/**
 * Decided: a prelude assigns a global whose name is a string that is not valid UTF-8:
 * ``Pack `{pack}`: its prelude defines a global whose name is not valid UTF-8``.
 */
export function preludeNameNotUtf8Message(pack: string): string {
  return `Pack \`${pack}\`: its prelude defines a global whose name is not valid UTF-8`;
}

/**
 * Assigning a field of a sealed prelude table: ``{global} is read-only: Pack `{pack}` defines
 * it; cannot set '{key}'``, where `key` is a string key as is, an integer key's digits, or the
 * type name of any other key (see {@link preludeKeyText}).
 */
export function preludeReadOnlyMessage(global: string, pack: string, key: string): string {
  return `${global} is read-only: Pack \`${pack}\` defines it; cannot set '${key}'`;
}

/**
 * Assigning into var from prelude code: `{path} is read-only inside a Pack prelude; cannot set
 * '{key}'`, where `path` is `var` or a dotted path with 1-based list indexes (`var.cfg.list[1]`).
 */
export function preludeVarReadOnlyMessage(path: string, key: string): string {
  return `${path} is read-only inside a Pack prelude; cannot set '${key}'`;
}

/** What `getmetatable` answers for a sealed prelude table: `{global} is sealed`. */
export function preludeSealedText(global: string): string {
  return `${global} is sealed`;
}

/** What `getmetatable` answers for var, or any table read from it, inside prelude code. */
export const PRELUDE_VAR_METATABLE_TEXT = "var is read-only";
