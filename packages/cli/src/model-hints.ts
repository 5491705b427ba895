import type { Host } from "@runvil/host";

const UNBOUND = /^- model role ([A-Za-z][A-Za-z0-9_-]*) cannot be bound: (.*)$/;
const KEY_VARIABLES: Readonly<Record<string, { env: string; module: string }>> = {
  openai: { env: "OPENAI_API_KEY", module: "@ai-sdk/openai" },
  anthropic: { env: "ANTHROPIC_API_KEY", module: "@ai-sdk/anthropic" },
};

function modelEntry(model: string): string {
  return `${JSON.stringify(model)}: { "contextWindow": 131072, "maxOutputTokens": 8192 }`;
}

/** The fix for a missing catalog id. */
function missingIdHint(id: string, catalog: readonly string[]): string {
  const colon = id.indexOf(":");
  if (colon < 0) {
    const named = catalog.find((known) => known.endsWith(`:${id}`));
    if (named !== undefined) return `write ${named}: catalog ids name their provider`;
    return `name it as provider:model, such as local:${id}, and add to runvil.config.json: "providers": { "local": { "module": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:11434/v1" }, "models": { ${modelEntry(id)} } } }`;
  }
  const provider = id.slice(0, colon);
  const model = id.slice(colon + 1);
  if (catalog.some((known) => known.startsWith(`${provider}:`))) {
    return `add ${modelEntry(model)} under providers.${provider}.models in runvil.config.json (with the model's own limits)`;
  }
  const known = KEY_VARIABLES[provider];
  if (known !== undefined) {
    return `set ${known.env}, or add to runvil.config.json: "providers": { ${JSON.stringify(provider)}: { "module": "${known.module}", "models": { ${modelEntry(model)} } } }`;
  }
  return `add to runvil.config.json: "providers": { ${JSON.stringify(provider)}: { "module": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:11434/v1" }, "models": { ${modelEntry(model)} } } }`;
}

function hintFor(label: string, reason: string, catalog: readonly string[]): string | undefined {
  if (reason.includes("names no model, and this host has no default model")) {
    if (catalog.length === 0) {
      return 'set OPENAI_API_KEY or ANTHROPIC_API_KEY, or add to runvil.config.json: "providers": { "local": { "module": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:11434/v1" }, "models": { "llama3.2": { "contextWindow": 131072, "maxOutputTokens": 8192 } } } }';
    }
    return `add "defaultModel": ${JSON.stringify(catalog[0])} to runvil.config.json, or set model: under models.${label}`;
  }
  const id = /`([^`]+)`/.exec(reason)?.[1];
  if (id !== undefined && reason.includes("model catalog")) return missingIdHint(id, catalog);
  return undefined;
}

/**
 * The requirements notice with the configuration to add after each model role that cannot be
 * bound (`  fix: set OPENAI_API_KEY, or add to runvil.config.json: "providers": { … }`): an
 * id of a provider the Host lacks gets the provider entry, an id missing from a configured
 * provider its `models` entry, a role without `model:` the `defaultModel` line.
 */
export function withModelHints(notice: string, host: Host): string {
  const catalog = [...host.models.keys()];
  const lines: string[] = [];
  for (const line of notice.split("\n")) {
    lines.push(line);
    const match = UNBOUND.exec(line);
    if (match === null) continue;
    const hint = hintFor(match[1] as string, match[2] as string, catalog);
    if (hint !== undefined) lines.push(`  fix: ${hint}`);
  }
  return lines.join("\n");
}
