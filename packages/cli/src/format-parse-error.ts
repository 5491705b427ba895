import type { PromptParseError } from "@runvil/parser";

/** Renders a parse error the way every command prints one: `{file}: {Kind} error: {message}`. */
export function formatParseError(file: string, error: PromptParseError): string {
  return `${file}: ${error.kind} error: ${error.message}`;
}

/** Renders a refused prepare the same way: `{file}: RequirementsUnmet error: {notice}`. */
export function formatRefusal(file: string, notice: string): string {
  return `${file}: RequirementsUnmet error: ${notice}`;
}

/** Renders a Host that could not be set up (a bad runvil.config.json, a failing plugin). */
export function formatHostError(file: string, message: string): string {
  return `${file}: Host error: ${message}`;
}
