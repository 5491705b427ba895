import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../io";

/** What a folder may hold and still count as empty for `runvil init`: a fresh `git init`. */
const ALLOWED_ENTRIES = new Set([".git"]);

/** Template files whose names npm would drop or act on, stored under another name. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: ".gitignore" };

/**
 * The starter project's template folder (`templates/init` of this package). The library and the
 * bin run from dist/, the tests from src/commands/: the folder is found by walking up.
 */
export async function initTemplateDir(from: string = import.meta.url): Promise<string> {
  let dir = dirname(fileURLToPath(from));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(dir, "templates", "init");
    const found = await stat(candidate).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (found) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`the starter project's templates are missing (no templates/init above ${from})`);
}

/** Every file under `dir`, as paths relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The target path of a template file: its renamed base name (`gitignore` → `.gitignore`). */
function targetName(file: string): string {
  const base = file.split("/").pop() ?? file;
  const renamed = RENAMED[base];
  return renamed === undefined ? file : join(dirname(file), renamed);
}

/** Why `dir` cannot take the starter project, or undefined when it is empty or absent. */
async function refusal(dir: string): Promise<string | undefined> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (info === undefined) return undefined;
  if (!info.isDirectory()) return `${dir} is not a folder`;
  const entries = (await readdir(dir)).filter((name) => !ALLOWED_ENTRIES.has(name)).sort();
  if (entries.length === 0) return undefined;
  const shown = entries.slice(0, 5).join(", ") + (entries.length > 5 ? ", …" : "");
  return `${dir} is not empty (it holds ${shown}); runvil init writes only into an empty or new folder`;
}

/**
 * `runvil init [DIR]`: writes the starter project (runvil.config.json with an OpenAI provider
 * whose key comes from OPENAI_API_KEY, an example prompt and its scenario tests, .gitignore,
 * README.md) into DIR (default: the working directory), which must be empty (a `.git` is
 * allowed) or not exist yet. Resolves to 0, or 1 with the reason on stderr.
 */
export async function initCommand(dir: string, io: CliIo): Promise<number> {
  try {
    const refused = await refusal(dir);
    if (refused !== undefined) {
      io.stderr(`runvil init: ${refused}\n`);
      return 1;
    }
    const templates = await initTemplateDir();
    const files = await filesUnder(templates);
    const written: string[] = [];
    for (const file of files) {
      const target = join(dir, targetName(file));
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(templates, file), target);
      written.push(targetName(file));
    }
    const shown = relative(process.cwd(), resolve(dir)) || ".";
    const cd = shown === "." ? "" : `  cd ${shown}\n`;
    io.stdout(
      [
        `created a Runvil project in ${shown}:`,
        ...written.map((file) => `  ${file}`),
        "next:",
        `${cd}  runvil test prompts                  # the scenarios pass with no key`,
        '  OPENAI_API_KEY=sk-... runvil run prompts/summarize.md --args "Some text."',
        "",
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`runvil init: ${dir}: ${message}\n`);
    return 1;
  }
}
