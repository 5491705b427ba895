import { definePack } from "@runvil/sdk";
import { NOTES_PRELUDE } from "./prelude";
import { addTool } from "./tools/add";
import { clearTool } from "./tools/clear";
import { listTool } from "./tools/list";

/**
 * The Pack acme/notes: a running list of notes in the run's `notes.md`, with the tools
 * `notes/add`, `notes/list` and `notes/clear` and a prelude defining the `notes` helper table.
 * It needs no service.
 */
export const notesPack = definePack({
  vendor: "acme",
  name: "notes",
  description: "Keep a running list of notes in the run's notes.md file.",
  prelude: NOTES_PRELUDE,
  tools: [addTool, listTool, clearTool],
});
