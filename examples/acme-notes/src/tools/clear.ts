import { defineTool } from "@runvil/sdk";
import { NOTES_FILE, parseNotes } from "../notes-file";
import { readNotesText, storeFailure } from "../store-access";

/** The wire name of `notes/clear`. */
const WIRE = "notes_clear";

/**
 * `notes/clear`: deletes `notes.md` and answers how many notes it held (structured: a JSON
 * number, 0 when there was no file). Trusted.
 */
export const clearTool = defineTool<Record<string, never>>({
  id: "notes/clear",
  description: "Delete every note and return how many there were.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  output: "structured",
  trust: "trusted",
  async run(_args, ctx) {
    const text = await readNotesText(ctx.store, WIRE);
    try {
      if (!(await ctx.store.exists(NOTES_FILE))) return 0;
      await ctx.store.delete(NOTES_FILE);
    } catch (error) {
      throw storeFailure(error, WIRE);
    }
    return parseNotes(text).length;
  },
});
