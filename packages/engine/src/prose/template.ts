import type { SubstitutionKind } from "@runvil/protocol";

/** One placeholder: its path and its normalized text (`{{ var.greeting }}`). */
export interface Placeholder {
  /** The names of the path, root first (`['var', 'greeting']`). */
  readonly path: readonly string[];
  /** The placeholder as messages name it: `{{ ` + the dotted path + ` }}`. */
  readonly text: string;
}

/**
 * A prose segment split at its placeholders: literal text and placeholders alternate,
 * starting and ending with literal text (possibly empty), so placeholders sit at odd indexes.
 */
export type ProseTemplate = readonly (string | Placeholder)[];

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const PLACEHOLDER = new RegExp(`\\{\\{[ \\t]*(${NAME}(?:\\.${NAME})*)[ \\t]*\\}\\}`, "g");

/** The empty template: no pending prose. */
export const EMPTY_TEMPLATE: ProseTemplate = [];

/**
 * Splits prose at its `{{ path }}` placeholders. Text that looks like a placeholder but has no
 * valid path (`{{ 1 + 1 }}`) stays literal.
 */
export function parseProseTemplate(text: string): ProseTemplate {
  if (text === "") return EMPTY_TEMPLATE;
  const parts: (string | Placeholder)[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const dotted = match[1] ?? "";
    parts.push(text.slice(last, match.index), { path: dotted.split("."), text: `{{ ${dotted} }}` });
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/** The template as the Engine Lua renderer reads it: literals, and paths as lists of names. */
export function templateForLua(template: ProseTemplate): (string | readonly string[])[] {
  return template.map((part) => (typeof part === "string" ? part : part.path));
}

/** The message of a placeholder failure (docs/design/prose.md). */
export function substitutionMessage(
  kind: SubstitutionKind,
  placeholder: string,
  type?: string,
): string {
  switch (kind) {
    case "MissingKey":
    case "NullValue":
      return `missing ${placeholder}`;
    case "Recursive":
      return `prose cannot be rendered inside prose: ${placeholder}`;
    case "NotText":
      return `${placeholder} cannot be rendered: got ${type ?? "a value with no text form"}`;
  }
}

/** The refusal of an assignment to `prose`. */
export const PROSE_READ_ONLY_MESSAGE = "prose is read-only: it holds the section's pending prose";
