import { type Prompt, parsePrompt } from "@runvil/parser";

/** Parses a prompt for a test; throws with the parse error's message when it does not parse. */
export async function parseForTest(text: string): Promise<Prompt> {
  const parsed = await parsePrompt(text);
  if (!parsed.ok) throw new Error(`test prompt does not parse: ${parsed.error.message}`);
  return parsed.prompt;
}

/** A prompt file with the usual frontmatter around `body` (which starts at the `# Title`). */
export function promptText(body: string, frontmatter = ""): string {
  return `---\nname: test\ndescription: A test prompt.\nrunvil: 0\n${frontmatter}---\n\n${body}`;
}
