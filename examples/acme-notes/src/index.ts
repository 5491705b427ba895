export { NOTES_FILE, noteLine, noteProblem, parseNotes } from "./notes-file";
export { notesPack } from "./notes-pack";
export { notesPlugin, notesPlugin as default } from "./notes-plugin";
export { NOTES_PRELUDE } from "./prelude";
export { addTool } from "./tools/add";
export { clearTool } from "./tools/clear";
export { listTool } from "./tools/list";
