import { definePlugin } from "@runvil/sdk";
import { userInputPack } from "./pack";

/** The plugin that adds runvil/user-input to a Host. It takes no options. */
export const userInputPlugin = definePlugin({
  name: "@runvil/plugin-user-input",
  setup(api) {
    api.addPack(userInputPack);
  },
});
