// Runs the TextMate grammar's tests (test/grammar/*.test.prompt.md) with vscode-tmgrammar-test.
// The grammar embeds VS Code's YAML, Lua and Markdown grammars by scope name; VS Code ships
// them, and the test loads the same grammars from the tm-grammars package.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const require = createRequire(import.meta.url);
const embedded = ["yaml", "lua", "markdown", "json"].map((name) =>
  require.resolve(`tm-grammars/grammars/${name}.json`),
);
const cli = require.resolve("vscode-tmgrammar-test/dist/unit.js");
const result = spawnSync(
  process.execPath,
  [cli, ...embedded.flatMap((path) => ["-g", path]), "test/grammar/*.test.prompt.md"],
  { cwd: root, encoding: "utf8" },
);
// The Markdown grammar names every language it embeds; the ones a prompt's prose fences may
// use but the tests do not load are reported as "grammar not found" and are left out here.
const shown = (text) =>
  text
    .split("\n")
    .filter((line) => !line.startsWith("grammar not found for "))
    .join("\n");
process.stdout.write(shown(result.stdout ?? ""));
process.stderr.write(shown(result.stderr ?? ""));
if (result.error !== undefined) throw result.error;
process.exit(result.status ?? 1);
