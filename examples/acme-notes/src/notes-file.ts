/** The store file that holds the notes: one `- {note}` line per note. */
export const NOTES_FILE = "notes.md";

/** The line a note is kept as in {@link NOTES_FILE}. */
export function noteLine(note: string): string {
  return `- ${note}\n`;
}

/**
 * The notes in the text of {@link NOTES_FILE}, oldest first: every line that starts with `- `,
 * without that marker. Other lines (a heading, a blank line, text the prompt wrote itself) are
 * not notes and are ignored.
 */
export function parseNotes(text: string): string[] {
  const notes: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("- ")) notes.push(line.slice(2));
  }
  return notes;
}

/**
 * Why `text` cannot be a note, or undefined when it can: a note is one line of text that is
 * not blank.
 */
export function noteProblem(
  text: string,
): "the note is empty" | "a note must be one line" | undefined {
  if (/[\r\n]/.test(text)) return "a note must be one line";
  if (text.trim() === "") return "the note is empty";
  return undefined;
}
