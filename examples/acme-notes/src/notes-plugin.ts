import { definePlugin } from "@runvil/sdk";
import { notesPack } from "./notes-pack";

/**
 * The plugin that adds acme/notes to a Host. Name it in a `runvil.config.json`:
 * `{ "plugins": [ { "module": "@acme/runvil-pack-notes" } ] }`. It takes no options.
 */
export const notesPlugin = definePlugin({
  name: "@acme/runvil-pack-notes",
  setup(api) {
    api.addPack(notesPack);
  },
});
