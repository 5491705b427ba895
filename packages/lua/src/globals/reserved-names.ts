import { KEPT_LUA_GLOBALS } from "../vm/sandbox";

/** The three classes of the reserved-name list, as the chapter names them. */
export type ReservedNameClass = "Engine global" | "Lua global" | "Lua keyword";

/** One entry of the reserved-name list. */
export interface ReservedName {
  readonly name: string;
  readonly class: ReservedNameClass;
}

/**
 * The 21 Engine globals, in the chapter's order ("The Engine globals"): the 19 every section VM
 * starts with, then `ui` (only with an application-state snapshot) and `item` (only in a spawned
 * chain).
 */
export const ENGINE_GLOBALS: readonly string[] = [
  "args",
  "argv",
  "sys",
  "var",
  "prose",
  "log",
  "store",
  "untrusted",
  "json",
  "models",
  "tools",
  "messages",
  "compactors",
  "call",
  "jump",
  "prompt",
  "require",
  "tasks",
  "packs",
  "ui",
  "item",
];

/** The Engine globals that are installed only in some section VMs (`ui`, `item`). */
export const CONDITIONAL_ENGINE_GLOBALS: readonly string[] = ["ui", "item"];

/**
 * The Engine globals the guard on `_G` serves itself rather than holding raw in `_G`: a raw read
 * of them gives nil, and an author metatable never sees their reads or assignments.
 */
export const GUARD_SERVED_GLOBALS: readonly string[] = ["argv", "messages", "prose"];

/**
 * The 23 Lua 5.5 keywords, `global` included (a contextual keyword in prompt Lua: `local global
 * = 1` still compiles). None of them ever reads as a global.
 */
export const LUA_KEYWORDS: readonly string[] = [
  "and",
  "break",
  "do",
  "else",
  "elseif",
  "end",
  "false",
  "for",
  "function",
  "global",
  "goto",
  "if",
  "in",
  "local",
  "nil",
  "not",
  "or",
  "repeat",
  "return",
  "then",
  "true",
  "until",
  "while",
];

/**
 * Familiar Lua names that read nil in every section VM ("Names that read nil"): the ones the
 * chapter names (printing, io, os, package, debug, code loading, the garbage collector,
 * coroutines, raw access), plus `rawlen` and `utf8`, which are outside the toolkit too.
 */
export const ABSENT_LUA_NAMES: readonly string[] = [
  "print",
  "warn",
  "io",
  "os",
  "package",
  "debug",
  "load",
  "loadfile",
  "dofile",
  "collectgarbage",
  "coroutine",
  "rawequal",
  "rawget",
  "rawset",
  "rawlen",
  "utf8",
];

/**
 * The reserved-name list: 62 names, the 21 Engine globals, the 18 Lua globals the sandbox keeps
 * and the 23 Lua keywords, each with its class, in that order.
 */
export const RESERVED_NAMES: readonly ReservedName[] = Object.freeze([
  ...ENGINE_GLOBALS.map((name) => Object.freeze({ name, class: "Engine global" as const })),
  ...KEPT_LUA_GLOBALS.map((name) => Object.freeze({ name, class: "Lua global" as const })),
  ...LUA_KEYWORDS.map((name) => Object.freeze({ name, class: "Lua keyword" as const })),
]);

const classByName = new Map<string, ReservedNameClass>(
  RESERVED_NAMES.map((entry) => [entry.name, entry.class]),
);

/** The class of `name` on the reserved-name list, or undefined when it is not reserved. */
export function reservedNameClass(name: string): ReservedNameClass | undefined {
  return classByName.get(name);
}

/** Whether `name` is on the reserved-name list. */
export function isReservedName(name: string): boolean {
  return classByName.has(name);
}

/** The `{kind}` phrase of the tools chapter's prelude refusal for each class. */
const KIND_PHRASES: Readonly<Record<ReservedNameClass, string>> = {
  "Engine global": "an Engine global",
  "Lua global": "a Lua standard-library global",
  "Lua keyword": "a Lua keyword",
};

/**
 * The refusal for a Pack prelude that defines the reserved global `name` ("Global names a
 * prelude cannot take"): ``Pack `{pack}`: its prelude defines the global `{name}`, which is
 * reserved as {kind}``, where {kind} is `an Engine global`, `a Lua standard-library global` or
 * `a Lua keyword`. Undefined when `name` is not reserved.
 */
export function preludeReservedNameMessage(pack: string, name: string): string | undefined {
  const cls = classByName.get(name);
  if (cls === undefined) return undefined;
  return `Pack \`${pack}\`: its prelude defines the global \`${name}\`, which is reserved as ${KIND_PHRASES[cls]}`;
}
