import { defineTool, ToolFailure } from "@runvil/sdk";
import { NOTES_FILE, noteLine, noteProblem, parseNotes } from "../notes-file";
import { readNotesText, storeFailure } from "../store-access";

/** The wire name of `notes/add`, which starts every failure message of the tool. */
const WIRE = "notes_add";

/**
 * `notes/add {text}`: appends the note as one `- {text}` line to `notes.md` in the run's store
 * and answers how many notes the file holds now (structured: a JSON number). Trusted: the
 * answer is the tool's own count.
 */
export const addTool = defineTool<{ text: string }>({
  id: "notes/add",
  description:
    "Add one note (a single line of text) to the notes file and return how many notes it holds.",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "The note, one line of text." } },
    required: ["text"],
    additionalProperties: false,
  },
  output: "structured",
  trust: "trusted",
  async run(args, ctx) {
    const problem = noteProblem(args.text);
    if (problem !== undefined) throw new ToolFailure(`${WIRE}: ${problem}`);
    const before = await readNotesText(ctx.store, WIRE);
    // A file edited by hand may end without a line break: start the note on a line of its own.
    const separator = before === "" || before.endsWith("\n") ? "" : "\n";
    try {
      await ctx.store.append(NOTES_FILE, `${separator}${noteLine(args.text)}`);
    } catch (error) {
      throw storeFailure(error, WIRE);
    }
    return parseNotes(before).length + 1;
  },
});
