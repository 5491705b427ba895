import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeRun } from "../run/execute-run";

/**
 * The prompt the build runs to fill the worker bundle's code cache: frontmatter, an H1 pass, a
 * walk of sections with a jump, var, json, string functions, store writes and reads and a prose
 * placeholder: what most runs touch first.
 */
const WARM_UP_PROMPT = `---
name: warm-up
description: Fills the code cache of the runvil run worker.
runvil: 0
---

# Warm up

\`\`\`lua
local words = {}
for word in (args or ''):gmatch('%a+') do words[#words + 1] = word:lower() end
var.words = words
var.title = 'words'
\`\`\`

## Count

Counting the {{ var.title }}.

\`\`\`lua
local counts = {}
for _, word in ipairs(json.decode(json.encode(var.words))) do
  counts[word] = (counts[word] or 0) + 1
end
var.counts = counts
store.write('counts.json', json.encode(counts))
jump('## Report')
\`\`\`

## Skipped

\`\`\`lua
error('not reached')
\`\`\`

## Report

\`\`\`lua
local counts = json.decode(store.read('counts.json'))
local names = {}
for name in pairs(counts) do names[#names + 1] = name end
table.sort(names)
return table.concat(names, ',')
\`\`\`
`;

/**
 * Runs {@link WARM_UP_PROMPT} in this thread, as `runvil run` would (a Host with the official
 * plugins, an in-memory store), in a scratch directory with a runvil.config.json of no plugins. The
 * build calls it in a worker, then saves the code cache, which then holds every function the run
 * compiled. Rejects when the run does not return `a,b`.
 */
export async function warmUp(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "runvil-warm-up-"));
  try {
    const file = join(dir, "warm-up.md");
    const configFile = join(dir, "runvil.config.json");
    writeFileSync(configFile, `{ "plugins": [] }\n`);
    const report = await executeRun(
      {
        file,
        bytes: new TextEncoder().encode(WARM_UP_PROMPT),
        args: "a B a",
        configFile,
        operator: false,
        eventLines: true,
        progress: true,
      },
      { onEventLine: () => {}, onProgress: () => {} },
    );
    const result = report.kind === "finished" ? report.result : undefined;
    if (result?.outcome !== "succeeded" || result.result !== "a,b") {
      throw new Error(`the warm-up run did not return a,b: ${JSON.stringify(report)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
