import { INPUT_BROKER, type PackDefinition, type PluginApi } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { askTool } from "./ask-tool";
import { userInputPack } from "./pack";
import { userInputPlugin } from "./plugin";
import { USER_INPUT_PRELUDE } from "./prelude";

describe("userInputPack", () => {
  it("is runvil/user-input, needing the input broker, with the one ask tool", () => {
    expect(userInputPack.vendor).toBe("runvil");
    expect(userInputPack.name).toBe("user-input");
    expect(userInputPack.description).toBe("Ask the operator and wait for their next message");
    expect(userInputPack.services).toEqual([INPUT_BROKER]);
    expect(userInputPack.services).toEqual(["runvil/input-broker"]);
    expect(userInputPack.tools).toEqual([askTool]);
    expect(userInputPack.prelude).toBe(USER_INPUT_PRELUDE);
  });

  it("ships the chapter's prelude exactly", () => {
    expect(USER_INPUT_PRELUDE).toBe(
      [
        "local pack = ...",
        "input = {}",
        "function input.ask(...)",
        "  if select('#', ...) > 0 then",
        '    error("input.ask takes no arguments", 2)',
        "  end",
        '  return tools.call(pack .. "/ask")',
        "end",
        "",
      ].join("\n"),
    );
  });
});

describe("userInputPlugin", () => {
  it("is named @runvil/plugin-user-input and adds the Pack and nothing else", async () => {
    expect(userInputPlugin.name).toBe("@runvil/plugin-user-input");
    const packs: PackDefinition[] = [];
    const api: PluginApi = {
      addPack: (pack) => packs.push(pack),
      provideService: () => expect.unreachable(),
      addModelProvider: () => expect.unreachable(),
    };
    await userInputPlugin.setup(api, undefined);
    expect(packs).toEqual([userInputPack]);
  });
});
