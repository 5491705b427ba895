/** A heading reference such as `## lib`: the level (number of `#`) and the section name. */
export interface HeadingReference {
  readonly level: number;
  readonly name: string;
}

const REFERENCE = /^(#{1,6})[ \t]+(\S(?:.*\S)?)$/s;

/**
 * Parses a heading reference: one to six `#`, spaces, and the name, compared as exact text.
 * Whitespace around the whole reference and the name is ignored. Returns null for any other
 * text (such as `os`).
 */
export function parseHeadingReference(text: string): HeadingReference | null {
  const match = REFERENCE.exec(text.trim());
  if (match === null) return null;
  const [, hashes = "", name = ""] = match;
  return { level: hashes.length, name };
}

/** The refusal for a target that names no visible section: the target as written, trimmed. */
export function sectionNotFoundMessage(target: string): string {
  return `section heading \`${target.trim()}\` not found`;
}

/** The refusal for a target that is not a string (`call`, `jump`, `require`). */
export const SECTION_TARGET_NOT_STRING = "section target must be a string";
