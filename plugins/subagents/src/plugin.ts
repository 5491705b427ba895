import { definePlugin } from "@runvil/sdk";
import { subagentsPack } from "./pack";

/** The plugin that adds runvil/subagents to a Host. It takes no options. */
export const subagentsPlugin = definePlugin({
  name: "@runvil/plugin-subagents",
  setup(api) {
    api.addPack(subagentsPack);
  },
});
