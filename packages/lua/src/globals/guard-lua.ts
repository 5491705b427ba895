/**
 * The chunk name of globals.lua, the Engine Lua this area runs in every VM. Lua shows its frames
 * and error positions as `runvil/globals.lua:{line}:` (the file's own lines), a bare file
 * reference that location mapping leaves alone (the chapter's "built-in helper's own file").
 */
export const GLOBALS_CHUNK_NAME = "@runvil/globals.lua";
