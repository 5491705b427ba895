import { parseUsesEntry, type UsesEntry } from "@runvil/names";
import {
  definePack,
  definePlugin,
  MODEL_SPECIFICATION_VERSION,
  type ModelInfo,
  type ModelProvider,
  type PackDefinition,
  type PluginDefinition,
  type ToolDefinition,
} from "@runvil/sdk";
import type { ModelRoleRequirement, RoleSettingsRequirement } from "./prepare/bind-models";
import type { PromptRequirements } from "./prepare/prepare-run";

/** A trusted plain tool answering `answer`, with an empty object schema unless given. */
export function testTool(
  id: string,
  overrides: Partial<Omit<ToolDefinition, "id">> = {},
): ToolDefinition {
  return {
    id,
    description: `The ${id} tool.`,
    parameters: { type: "object", properties: {} },
    trust: "trusted",
    run: () => `${id} answered`,
    ...overrides,
  };
}

/** A Pack `{vendor}/{name}` with tools of the given ids (or definitions). */
export function testPack(
  fullName: string,
  tools: readonly (string | ToolDefinition)[] = [],
  overrides: Partial<PackDefinition> = {},
): PackDefinition {
  const [vendor = "", name = ""] = fullName.split("/");
  return definePack({
    vendor,
    name,
    description: `The ${fullName} Pack.`,
    tools: tools.map((tool) => (typeof tool === "string" ? testTool(tool) : tool)),
    ...overrides,
  });
}

/** A plugin adding `packs` (and providing `services`). */
export function packPlugin(
  name: string,
  packs: readonly PackDefinition[],
  services: Readonly<Record<string, unknown>> = {},
): PluginDefinition {
  return definePlugin({
    name,
    setup(api) {
      for (const pack of packs) api.addPack(pack);
      for (const [id, service] of Object.entries(services)) api.provideService(id, service);
    },
  });
}

/** A prompt with these `uses:` entries. */
export function usesPrompt(...entries: string[]): PromptRequirements {
  const uses: UsesEntry[] = entries.map((text) => {
    const parsed = parseUsesEntry(text);
    if (!parsed.ok) throw new Error(`bad uses entry ${text}: ${parsed.reason}`);
    return parsed.value;
  });
  return { frontmatter: { uses, models: [] } };
}

/** A model's facts: a 200,000-token window, 32,000 output tokens, tools, unless given. */
export function testModel(id: string, overrides: Partial<Omit<ModelInfo, "id">> = {}): ModelInfo {
  return { id, contextWindow: 200_000, maxOutputTokens: 32_000, tools: true, ...overrides };
}

/** A provider named `name` serving `models` (ids or facts), answering every round `hi`. */
export function testProvider(name: string, models: readonly (string | ModelInfo)[]): ModelProvider {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    name,
    models: models.map((model) => (typeof model === "string" ? testModel(model) : model)),
    round: async () => ({
      text: "hi",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    }),
  };
}

/** A plugin adding these model providers. */
export function providerPlugin(name: string, ...providers: ModelProvider[]): PluginDefinition {
  return definePlugin({
    name,
    setup(api) {
      for (const provider of providers) api.addModelProvider(provider);
    },
  });
}

/** A role `label` with these settings over the defaults (`model: []`, `stop: []`, 20 rounds). */
export function testRole(
  label: string,
  settings: Partial<RoleSettingsRequirement> = {},
): ModelRoleRequirement {
  return { label, settings: { model: [], stop: [], maxRounds: 20, ...settings } };
}

/** A prompt that declares these model roles (and `uses:` entries). */
export function rolesPrompt(
  roles: readonly ModelRoleRequirement[],
  ...uses: string[]
): PromptRequirements {
  return { frontmatter: { uses: usesPrompt(...uses).frontmatter.uses, models: roles } };
}

/** What a promise rejects with (fails the test when it fulfills). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}
