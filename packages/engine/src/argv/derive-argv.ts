import type { ArgDeclaration } from "@runvil/parser";
import { toLuaJson } from "../json/convert";
import { decodeJsonValue, type LuaJsonObject, type LuaJsonValue } from "../lua";

/**
 * Derives `argv` from the argument string and the frontmatter's `args:` declarations
 * (docs/design/argv.md): a JSON object (json.decode's rules: integers and floats kept apart)
 * is taken as is; other non-empty text is the value of the first declared arg; then declared
 * defaults fill what is missing.
 */
export function deriveArgv(args: string, declared: readonly ArgDeclaration[]): LuaJsonObject {
  const parsed = parseJsonObject(args);
  const argv: LuaJsonObject = parsed ?? {};
  const first = declared[0];
  if (parsed === undefined && first !== undefined && args !== "") argv[first.name] = args;
  for (const arg of declared) {
    if (!Object.hasOwn(argv, arg.name) && arg.default !== undefined) {
      argv[arg.name] = toLuaJson(arg.default);
    }
  }
  return argv;
}

/**
 * The first refusal of `argv` against the declarations after the H1 pass: a required arg that
 * is absent or null, in declaration order; undefined when `argv` satisfies them.
 */
export function checkRequiredArgs(
  argv: LuaJsonObject,
  declared: readonly ArgDeclaration[],
): string | undefined {
  for (const arg of declared) {
    if (arg.required && (argv[arg.name] === undefined || argv[arg.name] === null)) {
      return `argv is missing the required arg \`${arg.name}\``;
    }
  }
  return undefined;
}

/** The refusal of an assignment to `argv`, or to one of its fields, outside the H1 pass. */
export const ARGV_FROZEN_MESSAGE = "argv is frozen outside H1: assign it in H1 only";

function parseJsonObject(text: string): LuaJsonObject | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  let value: LuaJsonValue;
  try {
    value = decodeJsonValue(trimmed);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
}
