import {
  definePack,
  definePlugin,
  INPUT_BROKER,
  type ModelProvider,
  type PackDefinition,
  type PluginApi,
  SEARCH_PROVIDER,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { SCENARIO_PLUGIN_NAME, scenarioGuardedEntry, scenarioPlugin } from "./scenario-plugins";
import { ScriptedModelProvider } from "./scripted-model-provider";

function recordingApi() {
  const calls: string[] = [];
  const api: PluginApi = {
    addPack: (pack) => calls.push(`pack ${pack.vendor}/${pack.name}`),
    provideService: (id) => calls.push(`service ${id}`),
    addModelProvider: (provider) => calls.push(`models ${provider.name}`),
  };
  return { api, calls };
}

const pack = (vendor: string, name: string): PackDefinition =>
  definePack({ vendor, name, description: "d", tools: [] });

describe("scenarioPlugin", () => {
  it("adds the case's Packs and its scripted model provider", async () => {
    const { api, calls } = recordingApi();
    const plugin = scenarioPlugin(
      [pack("runvil", "web"), pack("acme", "poop")],
      new ScriptedModelProvider({ bind: {}, replies: [] }),
    );
    await plugin.setup(api, undefined);
    expect(plugin.name).toBe(SCENARIO_PLUGIN_NAME);
    expect(calls).toEqual(["pack runvil/web", "pack acme/poop", "models scripted"]);
  });
});

describe("scenarioGuardedEntry", () => {
  const provider: ModelProvider = {
    specificationVersion: 1,
    name: "real",
    models: [{ id: "m", contextWindow: 8192, maxOutputTokens: 1024, tools: true }],
    round: () => Promise.reject(new Error("never")),
  };
  const userPlugin = definePlugin<{ tag: string }>({
    name: "user",
    setup(api, options) {
      api.addPack(pack("runvil", "web"));
      api.addPack(pack("runvil", "user-input"));
      api.addPack(pack("runvil", "subagents"));
      api.addPack(pack("acme", "web"));
      api.addPack(pack("runvil", `notes-${options?.tag ?? "none"}`));
      api.provideService(INPUT_BROKER, {});
      api.provideService(SEARCH_PROVIDER, {});
      api.provideService("acme/clock", {});
      api.addModelProvider(provider);
    },
  });

  it("passes the plugin's own Packs and services, and ignores what the case scripts", async () => {
    const { api, calls } = recordingApi();
    const entry = scenarioGuardedEntry({ plugin: userPlugin, options: { tag: "x" } });
    expect(entry.plugin.name).toBe("user");
    expect(entry.options).toEqual({ tag: "x" });
    await (entry.plugin.setup as (api: PluginApi, options: unknown) => Promise<void>)(
      api,
      entry.options,
    );
    expect(calls).toEqual(["pack acme/web", "pack runvil/notes-x", "service acme/clock"]);
  });

  it("keeps an entry without options without them", () => {
    expect(Object.keys(scenarioGuardedEntry({ plugin: userPlugin }))).toEqual(["plugin"]);
  });

  it("keeps the entry's configDir and passes api.configDir through to the plugin", async () => {
    const seen: (string | undefined)[] = [];
    const plugin = definePlugin({ name: "dir", setup: (api) => void seen.push(api.configDir) });
    const entry = scenarioGuardedEntry({ plugin, configDir: "/srv/app" });
    expect(entry.configDir).toBe("/srv/app");
    const setup = entry.plugin.setup as (api: PluginApi, options: unknown) => Promise<void>;
    await setup({ ...recordingApi().api, configDir: "/srv/app" }, undefined);
    await setup(recordingApi().api, undefined);
    expect(seen).toEqual(["/srv/app", undefined]);
  });
});
