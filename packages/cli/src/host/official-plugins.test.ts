import { definePlugin } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { officialPlugins, withOfficialPlugins } from "./official-plugins";

describe("the official plugins", () => {
  it("are web, user-input and subagents, without options", () => {
    expect(officialPlugins().map((entry) => [entry.plugin.name, entry.options])).toEqual([
      ["@runvil/plugin-web", undefined],
      ["@runvil/plugin-user-input", undefined],
      ["@runvil/plugin-subagents", undefined],
    ]);
  });

  it("come before the configured plugins, which replace one of the same name", () => {
    const mine = definePlugin({ name: "@acme/runvil-pack-notes", setup: () => {} });
    const web = definePlugin<{ fetch: { timeoutMs: number } }>({
      name: "@runvil/plugin-web",
      setup: () => {},
    });
    const entries = withOfficialPlugins([
      { plugin: mine },
      { plugin: web, options: { fetch: { timeoutMs: 5 } } },
    ]);
    expect(entries.map((entry) => entry.plugin.name)).toEqual([
      "@runvil/plugin-user-input",
      "@runvil/plugin-subagents",
      "@acme/runvil-pack-notes",
      "@runvil/plugin-web",
    ]);
    expect(entries[3]).toEqual({ plugin: web, options: { fetch: { timeoutMs: 5 } } });
  });
});
