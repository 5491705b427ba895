import { checkAliasMapping } from "./alias-mapping";
import type { Checked } from "./errors";
import type { ModelRoleDeclaration } from "./types";
import { mapToJson, type YamlSource } from "./yaml-nodes";

/**
 * Checks the value of `models:`: a mapping from role labels (alias grammar) to settings
 * mappings, such as `models: { writer: {} }`. Settings are kept as JSON data and not checked
 * further: the Host decides which settings a role takes when it binds the role.
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
    const settings = mapToJson(source, entry.settings, `models.${entry.name}`);
    if (!settings.ok) return settings;
    roles.push({ label: entry.name, settings: settings.value, line: entry.line });
  }
  return { ok: true, value: roles };
}
