#!/usr/bin/env node
// The docs check, run by `pnpm test:all` (`pnpm run test:docs`):
//   - every relative link in the repository's Markdown files names a file or folder that
//     exists (code blocks and inline code are skipped; URLs, `#anchors` and links that leave
//     the repository, such as ../shared/, are not checked);
//   - docs/design/README.md, the newcomer's map, links every decision file of docs/design/
//     and every package folder under packages/ and plugins/.
// So a moved file, a new decision file or a new package shows up here, naming the line to fix.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const skipped = new Set(["node_modules", "dist", ".git", ".turbo", "coverage", ".changeset"]);
const mapFile = join(root, "docs", "design", "README.md");

/** Every Markdown file of the repository, except generated changelogs. */
function markdownFiles(dir) {
  const found = [];
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(item.name)) continue;
    const path = join(dir, item.name);
    if (item.isDirectory()) found.push(...markdownFiles(path));
    else if (item.name.endsWith(".md") && item.name !== "CHANGELOG.md") found.push(path);
  }
  return found;
}

/** The file's lines with fenced code blocks blanked (``` and ~~~, any fence length). */
function proseLines(text) {
  const lines = text.split("\n");
  let fence = null;
  return lines.map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (opener !== null) fence = opener[1];
      return opener === null ? line : "";
    }
    if (opener !== null && opener[1][0] === fence[0] && opener[1].length >= fence.length) {
      fence = null;
    }
    return "";
  });
}

/** The relative links of a file: `{ line, target, path }`, path resolved against the file. */
function relativeLinks(file) {
  const links = [];
  proseLines(readFileSync(file, "utf8")).forEach((line, index) => {
    const text = line.replace(/(`+)[^`]*?\1/g, (code) => " ".repeat(code.length));
    for (const match of text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      const bare = decodeURIComponent(target.split("#")[0].split("?")[0]);
      if (bare === "") continue;
      links.push({ line: index + 1, target, path: resolve(dirname(file), bare) });
    }
  });
  return links;
}

const inside = (path) => path === root || path.startsWith(root + sep);
const shown = (path) => relative(root, path).split(sep).join("/");
const problems = [];

for (const file of markdownFiles(root)) {
  for (const link of relativeLinks(file)) {
    if (inside(link.path) && !existsSync(link.path)) {
      problems.push(`${shown(file)}:${link.line}: the link ${link.target} names nothing`);
    }
  }
}

if (!existsSync(mapFile)) {
  problems.push("docs/design/README.md is missing: it is the map of every decision file");
} else {
  const linked = new Set(relativeLinks(mapFile).map((link) => link.path.replace(/[/\\]$/, "")));
  const designDir = dirname(mapFile);
  for (const name of readdirSync(designDir).sort()) {
    if (!name.endsWith(".md") || name === "README.md") continue;
    if (!linked.has(join(designDir, name))) {
      problems.push(`docs/design/README.md does not link docs/design/${name}: add it to the map`);
    }
  }
  for (const group of ["packages", "plugins"]) {
    for (const item of readdirSync(join(root, group), { withFileTypes: true })) {
      const folder = join(root, group, item.name);
      if (!item.isDirectory() || !existsSync(join(folder, "package.json"))) continue;
      if (!linked.has(folder) && !linked.has(join(folder, "README.md"))) {
        problems.push(
          `docs/design/README.md does not link ${group}/${item.name}: add it to the map`,
        );
      }
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`docs: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  process.exit(1);
}
console.log("docs: every link resolves, and the map covers every decision file and package");
