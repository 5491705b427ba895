#!/usr/bin/env node
// The conformance ratchet. Runs `runvil test` on ../shared/conformance (the
// folder beside the repository) and compares the result with the committed list
// of passing cases in conformance/passing.txt:
//   - a listed case that fails now fails this script (progress is protected);
//   - a case that passes but is not listed is reported; `--update` adds it
//     (commit the list in the same commit as the change that made it pass);
//   - the pass count per folder is printed, ending with `conformance: N passed, N failed`.
// When the conformance folder is absent, the script says so and exits 0.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const suite = process.env.RUNVIL_CONFORMANCE_DIR ?? resolve(root, "..", "shared", "conformance");
const listFile = join(root, "conformance", "passing.txt");
const update = process.argv.includes("--update");

if (!existsSync(suite)) {
  console.log(`conformance: ${suite} is absent; skipping the conformance ratchet`);
  process.exit(0);
}

const cli = join(root, "packages", "cli", "dist", "bin.js");
const run = spawnSync(process.execPath, [cli, "test", "--json", suite], {
  encoding: "utf8",
  maxBuffer: 256 * 1024 * 1024,
});
if (run.error !== undefined || (run.status !== 0 && run.status !== 1)) {
  console.error(`conformance: runvil test did not finish (exit ${run.status})`);
  console.error(run.stderr);
  process.exit(2);
}
/** @type {{ passed: number, failed: number, skipped: number, cases: { file: string, name: string, status: string, failure?: string }[] }} */
const report = JSON.parse(run.stdout);

const idOf = (c) => `${relative(suite, c.file).split("\\").join("/")} :: ${c.name}`;
const listed = existsSync(listFile)
  ? readFileSync(listFile, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  : [];
const passing = new Set(report.cases.filter((c) => c.status === "passed").map(idOf));
const known = new Set(report.cases.map(idOf));

const regressions = listed.filter((id) => known.has(id) && !passing.has(id));
const vanished = listed.filter((id) => !known.has(id));
const fresh = [...passing].filter((id) => !listed.includes(id)).sort();

const perFolder = new Map();
for (const c of report.cases) {
  const folder = idOf(c).split("/")[0];
  const counts = perFolder.get(folder) ?? { passed: 0, failed: 0, skipped: 0 };
  counts[c.status] += 1;
  perFolder.set(folder, counts);
}
for (const [folder, counts] of [...perFolder].sort()) {
  console.log(
    `conformance ${folder}/: ${counts.passed} passed, ${counts.failed} failed` +
      (counts.skipped > 0 ? `, ${counts.skipped} skipped` : ""),
  );
}

if (update) {
  const next = [...passing].sort();
  writeFileSync(
    listFile,
    `# Conformance cases that pass (file :: case). Maintained by scripts/conformance.mjs --update;\n# a listed case that fails makes the test command fail.\n${next.join("\n")}\n`,
  );
  console.log(`conformance: wrote ${next.length} passing cases to ${relative(root, listFile)}`);
} else if (fresh.length > 0) {
  console.log(
    `conformance: ${fresh.length} case(s) pass that are not in ${relative(root, listFile)}; run \`node scripts/conformance.mjs --update\` and commit the list:`,
  );
  for (const id of fresh) console.log(`  + ${id}`);
}
for (const id of vanished) console.log(`conformance: listed case no longer exists: ${id}`);

if (regressions.length > 0 && !update) {
  console.error(`conformance: ${regressions.length} listed case(s) no longer pass:`);
  const byId = new Map(report.cases.map((c) => [idOf(c), c]));
  for (const id of regressions) {
    const failure = byId.get(id)?.failure;
    console.error(`  - ${id}${failure ? ` (${failure})` : ""}`);
  }
}
console.log(
  `conformance: ${report.passed} passed, ${report.failed} failed${report.skipped > 0 ? `, ${report.skipped} skipped` : ""}`,
);
process.exit(regressions.length > 0 && !update ? 1 : 0);
