import { ERROR_KINDS } from "../engine-error";

/**
 * The chunk name of errors.lua, the Engine Lua behind the Engine's pcall and xpcall. Its frames
 * appear in tracebacks as bare `runvil/errors.lua:{line}:` references (the file's own lines), as
 * the chapter says of the Engine's own Lua ("Errors that pass through several blocks").
 */
export const ERRORS_CHUNK_NAME = "@runvil/errors.lua";

/**
 * The chunk name of error-values.lua (error values and the `errors` helpers): frames read
 * `runvil/error-values.lua:{line}:`.
 */
export const ERROR_VALUES_CHUNK_NAME = "@runvil/error-values.lua";

/** The error kinds as errors.lua hands them to error-values.lua: one text, space-separated. */
export const ERROR_KINDS_TEXT = ERROR_KINDS.join(" ");
