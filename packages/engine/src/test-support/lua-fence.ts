/** A ```lua fence around `code`. */
export function lua(code: string): string {
  return `\`\`\`lua\n${code}\n\`\`\``;
}

/** A prompt body from parts joined by blank lines, ending with a newline. */
export function body(...parts: string[]): string {
  return `${parts.join("\n\n")}\n`;
}
