import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";

/**
 * `runvil run`'s cold start on a one-section prompt (`return 'hi'`), against `node -e 0`
 * measured in the same rounds (the reference: Node's own start on this machine). Goal: ≤ 250 ms
 * where `node -e 0` takes ~115 ms, i.e. about 2.2× the reference. Before vitest's tables,
 * prints the medians of 11 interleaved rounds and their ratio, then the stages of a recorded run
 * from its start-up marks. Needs the built dist/.
 */

const ROUNDS = 11;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "runvil-cold-start-"));
const prompt = join(dir, "one.md");
writeFileSync(
  prompt,
  "---\nname: one\ndescription: One section.\nrunvil: 0\n---\n\n# One\n\n```lua\nreturn 'hi'\n```\n",
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function msOf(args: readonly string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - start;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(" ")} failed: ${String(result.stderr)}`);
  }
  return ms;
}

const nodeOnly = ["-e", "0"];
// Without the journal (as before it existed), and recording into a journal (the default).
const runOne = [bin, "run", prompt, "--no-record"];
const runRecorded = [bin, "run", prompt, "--journal", join(dir, "runs.db")];

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

msOf(runOne); // the file cache, and the code cache if a build left none
const nodeMs: number[] = [];
const runMs: number[] = [];
const recordedMs: number[] = [];
msOf(runRecorded); // creates the journal
for (let round = 0; round < ROUNDS; round++) {
  nodeMs.push(msOf(nodeOnly));
  runMs.push(msOf(runOne));
  recordedMs.push(msOf(runRecorded));
}
console.log(
  [
    `node -e 0: ${median(nodeMs).toFixed(0)} ms`,
    `runvil run (one section): ${median(runMs).toFixed(0)} ms (goal ≤ 250 ms)`,
    `runvil run / node -e 0: ${(median(runMs) / median(nodeMs)).toFixed(2)}×`,
    `runvil run, recorded in the journal: ${median(recordedMs).toFixed(0)} ms (+${(median(recordedMs) - median(runMs)).toFixed(0)} ms)`,
  ].join("\n"),
);

/** The marks of one `runvil run` (RUNVIL_STARTUP_MARKS=1), by thread and name. */
function marksOf(args: readonly string[]): Map<string, number> {
  const result = spawnSync(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUNVIL_STARTUP_MARKS: "1" },
    encoding: "utf8",
  });
  const marks = new Map<string, number>();
  for (const line of result.stderr.split("\n")) {
    const mark = /^runvil-mark ([\d.]+) (\w+) (.*?)( \(.*)?$/.exec(line);
    if (mark !== null) marks.set(`${mark[2]} ${mark[3]}`, Number(mark[1]));
  }
  return marks;
}

/** The stages of the breakdown (docs/design/performance.md), each between two marks of one run. */
const STAGES: readonly (readonly [string, string, string])[] = [
  ["worker bootstrap (from bin)", "main bin", "worker worker started"],
  ["bundle loaded", "worker worker started", "worker bundle loaded"],
  ["Lua runtime", "worker run request", "worker lua runtime loaded"],
  ["prompt parsed", "worker lua runtime loaded", "worker prompt parsed"],
  ["Host set up and prepared", "worker prompt parsed", "worker prepared"],
  ["journal opened", "worker prepared", "worker journal opened"],
  ["Engine loaded", "worker journal opened", "worker engine loaded"],
  ["run", "worker engine loaded", "worker run finished"],
  ["to the main thread's done", "worker run finished", "main done"],
];

const stageMs = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  const marks = marksOf(runRecorded);
  for (const [name, from, to] of STAGES) {
    const start = marks.get(from);
    const end = marks.get(to);
    if (start !== undefined && end !== undefined) {
      stageMs.set(name, [...(stageMs.get(name) ?? []), end - start]);
    }
  }
}
console.log(
  [
    `stages of a recorded run (medians of ${ROUNDS}, each between two marks of one run):`,
    ...STAGES.map(([name]) => `  ${name}: ${median(stageMs.get(name) ?? []).toFixed(1)} ms`),
  ].join("\n"),
);

describe("cold start", () => {
  bench("node -e 0", () => void msOf(nodeOnly), { iterations: 5 });
  bench("runvil run, one section", () => void msOf(runOne), { iterations: 5 });
  bench("runvil run, one section, recorded", () => void msOf(runRecorded), { iterations: 5 });
});
