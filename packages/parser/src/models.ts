import { isAlias, type YAMLMap } from "yaml";
import { checkAliasMapping } from "./alias-mapping";
import { type Checked, failed, frontmatterError } from "./errors";
import { checkModelSetting, isRoleSetting, ROLE_SETTINGS } from "./model-settings";
import type { ModelRoleDeclaration, RoleSettings } from "./types";
import {
  chargeAlias,
  describeNode,
  positionOf,
  resolveNode,
  stringValue,
  type YamlSource,
} from "./yaml-nodes";

/** The round cap of one `models.loop` call when the role sets no `max_rounds` (loop.md). */
export const DEFAULT_MAX_ROUNDS = 20;

/**
 * Checks the value of `models:`: a mapping from role labels (alias grammar) to settings
 * mappings, such as `models: { writer: { model: claude-sonnet-4-6, temperature: 0 } }`
 * (docs/design/models.md §1). Every setting is optional; an unknown one, a key that is not a
 * string, or a value of the wrong type is a Frontmatter error naming the line of the key or
 * list item at fault.
 */
export function checkModels(
  source: YamlSource,
  value: unknown,
  keyLine: number,
): Checked<ModelRoleDeclaration[]> {
  const entries = checkAliasMapping(source, value, keyLine, {
    key: "models",
    keyName: "role label",
    example: "models: { writer: {} }",
  });
  if (!entries.ok) return entries;
  const roles: ModelRoleDeclaration[] = [];
  for (const entry of entries.value) {
    const settings = checkRoleSettings(source, entry.name, entry.settings, entry.aliased);
    if (!settings.ok) return settings;
    roles.push({ label: entry.name, settings: settings.value, line: entry.line });
  }
  return { ok: true, value: roles };
}

/**
 * Checks one role's settings. `aliased`: the settings are an alias's value, already charged to
 * the alias budget; otherwise a setting given as an alias (`model: *models`) is charged at each
 * use, so one long list shared by many roles cannot multiply (yaml-nodes.ts, chargeAlias).
 */
function checkRoleSettings(
  source: YamlSource,
  label: string,
  mapping: YAMLMap,
  aliased: boolean,
): Checked<RoleSettings> {
  const settings: RoleSettings = { model: [], stop: [], maxRounds: DEFAULT_MAX_ROUNDS };
  for (const pair of mapping.items) {
    const line = positionOf(source, pair.key).line;
    const keyNode = resolveNode(source, pair.key);
    const key = stringValue(keyNode);
    if (key === undefined) {
      return failed(
        frontmatterError(
          `the keys of \`models.${label}\` must be strings, found ${describeNode(keyNode)}`,
          line,
        ),
      );
    }
    if (!isRoleSetting(key)) {
      return failed(
        frontmatterError(
          `\`models.${label}\` has an unknown setting \`${key}\`; the known settings are ${ROLE_SETTINGS.join(", ")}`,
          line,
        ),
      );
    }
    if (!aliased && isAlias(pair.value)) {
      const charged = chargeAlias(source, pair.value, `models.${label}.${key}`);
      if (!charged.ok) return charged;
    }
    const checked = checkModelSetting(source, `models.${label}`, key, pair.value, line, settings);
    if (!checked.ok) return checked;
  }
  return { ok: true, value: settings };
}
