import type { SearchResult } from "@runvil/sdk";

/**
 * Renders search results as the text web/search answers: one numbered entry per result, entries
 * separated by a blank line, each with its title on the numbered line and its url and
 * description indented by three spaces on the lines below (a line is left out when empty):
 *
 * ```
 * 1. Lua 5.5 released
 *    https://www.lua.org/news.html
 *    Lua 5.5.0 is now available.
 *
 * 2. ...
 * ```
 *
 * Runs of whitespace (line breaks included) inside a field become one space, so every entry keeps
 * this shape. An empty list renders as `No results for "{query}".`
 */
export function renderSearchResults(results: readonly SearchResult[], query: string): string {
  if (results.length === 0) return `No results for "${query}".`;
  return results.map((result, index) => renderEntry(result, index + 1)).join("\n\n");
}

function renderEntry(result: SearchResult, number: number): string {
  const lines = [`${number}. ${oneLine(result.title) || "(untitled)"}`];
  for (const field of [result.url, result.description]) {
    const text = oneLine(field);
    if (text !== "") lines.push(`   ${text}`);
  }
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
