import { checkAlias, invalidAliasMessage } from "@runvil/names";
import { isAlias, isMap, type YAMLMap } from "yaml";
import { type Checked, failed, frontmatterError } from "./errors";
import {
  chargeAlias,
  describeNode,
  positionOf,
  resolveNode,
  stringValue,
  type YamlSource,
} from "./yaml-nodes";

/** One entry of a mapping whose keys follow the alias grammar, with its settings mapping. */
export interface AliasEntry {
  /** The key: a role label or an arg name. */
  name: string;
  /** File line of the key. */
  line: number;
  /** The entry's settings mapping (aliases resolved). */
  settings: YAMLMap;
  /** Whether the settings are an alias's value (already charged to the alias budget). */
  aliased: boolean;
}

/** How one alias-keyed frontmatter key is described in messages. */
export interface AliasMappingKind {
  /** The frontmatter key: `models` or `args`. */
  key: string;
  /** What its keys are: `role label` or `arg name`. */
  keyName: string;
  /** An example of the whole key, e.g. `models: { writer: {} }`. */
  example: string;
}

/**
 * Checks a mapping from alias-grammar names to settings mappings (`models:` and `args:`).
 *
 * Errors: the value is not a mapping; a key that is not a string
 * (`\`models\` role labels must be strings, found a number`); a key outside the alias grammar
 * (`\`models\` role label: invalid alias "x y": expected [A-Za-z][A-Za-z0-9_-]{0,63}`); a value
 * that is not a mapping (`\`models.writer\` must be a settings mapping, found null; write
 * \`writer: {}\` for no settings`); settings given as an alias that takes the frontmatter past
 * its alias budget (yaml-nodes.ts). Each message ends with the line.
 */
export function checkAliasMapping(
  source: YamlSource,
  value: unknown,
  keyLine: number,
  kind: AliasMappingKind,
): Checked<AliasEntry[]> {
  const mapping = resolveNode(source, value);
  if (mapping === undefined || !isMap(mapping)) {
    const line = mapping === undefined ? keyLine : positionOf(source, mapping).line;
    return failed(
      frontmatterError(
        `\`${kind.key}\` must be a mapping of ${kind.keyName}s to settings, such as \`${kind.example}\`, found ${describeNode(mapping)}`,
        line,
      ),
    );
  }
  const entries: AliasEntry[] = [];
  for (const pair of mapping.items) {
    const line = positionOf(source, pair.key).line;
    const name = stringValue(resolveNode(source, pair.key));
    if (name === undefined) {
      return failed(
        frontmatterError(
          `\`${kind.key}\` ${kind.keyName}s must be strings, found ${describeNode(resolveNode(source, pair.key))}`,
          line,
        ),
      );
    }
    const checked = checkAlias(name);
    if (!checked.ok) {
      return failed(
        frontmatterError(`\`${kind.key}\` ${kind.keyName}: ${invalidAliasMessage(name)}`, line),
      );
    }
    const settings = resolveNode(source, pair.value);
    if (settings === undefined || !isMap(settings)) {
      const settingsLine = settings === undefined ? line : positionOf(source, settings).line;
      return failed(
        frontmatterError(
          `\`${kind.key}.${name}\` must be a settings mapping, found ${describeNode(settings)}; write \`${name}: {}\` for no settings`,
          settingsLine,
        ),
      );
    }
    const aliased = isAlias(pair.value);
    if (isAlias(pair.value)) {
      const charged = chargeAlias(source, pair.value, `${kind.key}.${name}`);
      if (!charged.ok) return charged;
    }
    entries.push({ name, line, settings, aliased });
  }
  return { ok: true, value: entries };
}
