import { isScalar } from "yaml";
import { checkAliasMapping } from "./alias-mapping";
import { type Checked, failed, frontmatterError } from "./errors";
import type { ArgDeclaration, JsonValue } from "./types";
import {
  describeNode,
  keyText,
  positionOf,
  resolveNode,
  stringValue,
  toJson,
  type YamlSource,
} from "./yaml-nodes";

/** The settings an arg may carry, in the order messages list them. */
export const ARG_SETTINGS = ["description", "required", "default"] as const;

/**
 * Checks the value of `args:`: a mapping from arg names (alias grammar) to settings mappings with
 * the optional keys `description` (a string), `required` (a boolean) and `default` (any JSON
 * data). An arg cannot be both required and defaulted. Unknown settings are errors.
 */
export function checkArgs(
  source: YamlSource,
  value: unknown,
  keyLine: number,
): Checked<ArgDeclaration[]> {
  const entries = checkAliasMapping(source, value, keyLine, {
    key: "args",
    keyName: "arg name",
    example: "args: { topic: { required: true } }",
  });
  if (!entries.ok) return entries;
  const args: ArgDeclaration[] = [];
  for (const entry of entries.value) {
    const arg: ArgDeclaration = {
      name: entry.name,
      description: undefined,
      required: false,
      default: undefined,
      line: entry.line,
    };
    let requiredLine = entry.line;
    for (const pair of entry.settings.items) {
      const setting = stringValue(resolveNode(source, pair.key));
      const path = `args.${entry.name}.${setting ?? keyText(source, pair.key)}`;
      const line = positionOf(source, pair.key).line;
      const node = resolveNode(source, pair.value);
      if (setting === "description") {
        const text = stringValue(node);
        if (text === undefined) return typeError(path, "a string", node, line);
        arg.description = text;
      } else if (setting === "required") {
        if (node === undefined || !isScalar(node) || typeof node.value !== "boolean") {
          return typeError(path, "a boolean", node, line);
        }
        arg.required = node.value;
        requiredLine = line;
      } else if (setting === "default") {
        const json: Checked<JsonValue> = toJson(source, pair.value, path, entry.aliased);
        if (!json.ok) return json;
        arg.default = json.value;
      } else {
        return failed(
          frontmatterError(
            `\`args.${entry.name}\` has an unknown setting \`${keyText(source, pair.key)}\`; the known settings are ${ARG_SETTINGS.join(", ")}`,
            line,
          ),
        );
      }
    }
    if (arg.required && arg.default !== undefined) {
      return failed(
        frontmatterError(
          `\`args.${entry.name}\` is required and also has a default; drop one of them`,
          requiredLine,
        ),
      );
    }
    args.push(arg);
  }
  return { ok: true, value: args };
}

function typeError(
  path: string,
  expected: string,
  node: ReturnType<typeof resolveNode>,
  line: number,
): Checked<never> {
  return failed(
    frontmatterError(`\`${path}\` must be ${expected}, found ${describeNode(node)}`, line),
  );
}
