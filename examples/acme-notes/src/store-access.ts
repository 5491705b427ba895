import { type RunStore, StoreError, ToolFailure } from "@runvil/sdk";
import { NOTES_FILE } from "./notes-file";

/**
 * The text of the notes file, `""` when there is none yet. A store failure (the file is not
 * UTF-8, a directory holds its name, ...) becomes a model-safe ToolFailure starting with the
 * calling tool's wire name.
 */
export async function readNotesText(store: RunStore, wireName: string): Promise<string> {
  try {
    if (!(await store.exists(NOTES_FILE))) return "";
    return await store.read(NOTES_FILE);
  } catch (error) {
    throw storeFailure(error, wireName);
  }
}

/** The ToolFailure for an error a store operation threw; anything else is rethrown as is. */
export function storeFailure(error: unknown, wireName: string): unknown {
  if (StoreError.isInstance(error)) {
    return new ToolFailure(`${wireName}: ${error.message}`, { cause: error });
  }
  return error;
}
