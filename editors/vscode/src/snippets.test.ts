import { readFileSync } from "node:fs";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { describe, expect, it } from "vitest";

interface Snippet {
  prefix: string;
  description: string;
  body: string[];
}

const snippets = JSON.parse(
  readFileSync(new URL("../snippets/runvil-prompt.code-snippets", import.meta.url), "utf8"),
) as Record<string, Snippet>;

const byPrefix = (prefix: string): Snippet => {
  const found = Object.values(snippets).find((s) => s.prefix === prefix);
  if (found === undefined) throw new Error(`no snippet with the prefix ${prefix}`);
  return found;
};

/** The text a snippet inserts when every placeholder keeps its default (VS Code's syntax). */
function expand(snippet: Snippet): string {
  return snippet.body
    .join("\n")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/\$\d+/g, "");
}

describe("the snippets", () => {
  it("cover the common section shapes", () => {
    expect(Object.values(snippets).map((s) => s.prefix)).toEqual([
      "frontmatter",
      "section",
      "lua",
      "models.loop",
      "tools.offer",
      "tasks.fanout",
      "{{",
    ]);
    for (const snippet of Object.values(snippets)) expect(snippet.description).not.toBe("");
  });

  it("expand, together, to a prompt the parser accepts, every Lua block compiling", async () => {
    const text = [
      expand(byPrefix("frontmatter")),
      expand(byPrefix("section")),
      expand(byPrefix("models.loop")),
      expand(byPrefix("tools.offer")),
      expand(byPrefix("tasks.fanout")),
      `## Last\n\nEnds with ${expand(byPrefix("{{"))}.\n\n${expand(byPrefix("lua")).replace("\n\n", "\nreturn prose\n")}`,
    ].join("\n\n");
    const parse = createPromptParser(await loadLuaRuntime());
    const result = parse(text, { path: "snippets.md" });
    if (!result.ok) throw new Error(result.error.message);
    const { prompt } = result;
    expect(prompt.frontmatter.uses.map((u) => u.packId)).toEqual(["web"]);
    expect(prompt.frontmatter.models.map((m) => m.label)).toEqual(["writer"]);
    expect(prompt.sections.map((s) => s.name)).toEqual([
      "Step",
      "Ask the model",
      "Research",
      "Fan out",
      "Worker",
      "Last",
    ]);
  });

  it("repeat a placeholder's default where its number repeats (the local tool's argument)", () => {
    expect(expand(byPrefix("tools.offer"))).toContain("return 'noted ' .. a.text");
  });
});
