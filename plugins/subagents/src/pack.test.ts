import type { PackDefinition, PluginApi } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { subagentsPack } from "./pack";
import { subagentsPlugin } from "./plugin";

describe("subagentsPack", () => {
  it("is runvil/subagents with no tools, no prelude and no service needs", () => {
    expect(subagentsPack.vendor).toBe("runvil");
    expect(subagentsPack.name).toBe("subagents");
    expect(subagentsPack.description).toBe("Delegate work to sub-agents");
    expect(subagentsPack.tools).toEqual([]);
    expect(subagentsPack.prelude).toBeUndefined();
    expect(subagentsPack.services).toBeUndefined();
    expect(subagentsPack.start).toBeUndefined();
  });
});

describe("subagentsPlugin", () => {
  it("is named @runvil/plugin-subagents and adds the Pack and nothing else", async () => {
    expect(subagentsPlugin.name).toBe("@runvil/plugin-subagents");
    const packs: PackDefinition[] = [];
    const api: PluginApi = {
      addPack: (pack) => packs.push(pack),
      provideService: () => expect.unreachable(),
      addModelProvider: () => expect.unreachable(),
    };
    await subagentsPlugin.setup(api, undefined);
    expect(packs).toEqual([subagentsPack]);
  });
});
