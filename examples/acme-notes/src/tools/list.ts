import { defineTool } from "@runvil/sdk";
import { parseNotes } from "../notes-file";
import { readNotesText } from "../store-access";

/**
 * `notes/list`: answers every note in `notes.md`, oldest first (structured: a JSON array of
 * strings, `[]` when there are none). Trusted.
 */
export const listTool = defineTool<Record<string, never>>({
  id: "notes/list",
  description: "Return every note in the notes file, oldest first, as a list of strings.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  output: "structured",
  trust: "trusted",
  async run(_args, ctx) {
    return parseNotes(await readNotesText(ctx.store, "notes_list"));
  },
});
