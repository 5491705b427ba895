const LABEL = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The `--model role=id` values of `runvil run` / `runvil models`, checked. */
export type ModelOverrides =
  | { readonly ok: true; readonly models: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly message: string };

/**
 * Reads each `--model` value as `role=catalog-id` (`writer=openai:gpt-5-mini`): the role a
 * model-role label, the id non-empty, each role once. A role the prompt does not declare is
 * left to prepare (it ignores it).
 */
export function parseModelOverrides(values: readonly string[]): ModelOverrides {
  const models: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    const role = at < 0 ? "" : value.slice(0, at);
    const id = at < 0 ? "" : value.slice(at + 1);
    if (!LABEL.test(role) || id === "") {
      return {
        ok: false,
        message: `--model takes role=model, such as writer=openai:gpt-5-mini; got ${JSON.stringify(value)}`,
      };
    }
    if (Object.hasOwn(models, role)) {
      return { ok: false, message: `--model names role ${role} twice` };
    }
    models[role] = id;
  }
  return { ok: true, models };
}
