import { parseUsesEntry, type UsesEntry } from "@runvil/names";
import {
  definePack,
  definePlugin,
  type PackDefinition,
  type PluginDefinition,
  type ToolDefinition,
} from "@runvil/sdk";
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
  return { frontmatter: { uses } };
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
