import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { STOP_ESCALATED_MESSAGE, STOP_TERMINATED_MESSAGE } from "../commands/run";
import { testCommand } from "../commands/test";
import { promptDir, removeTestFolders, signalWhen, stuckPrompt } from "../test-bin";
import { memoryIo } from "../test-io";

/**
 * Attack class: stops and timeouts that never arrive (docs/security.md). A run stuck where no
 * Lua instruction runs (a C-level pattern search or `table.move`, `table.insert` on a table
 * whose `__len` is huge, a tool that holds the thread) never reaches the count hook, so a
 * cancel or a stop set as a flag is never seen; `runvil test` hung on such a case (killed at
 * 90 s). Cases run in case threads: a case that outlives its timeout has its thread ended and
 * fails, naming the case, and the other cases still run (docs/design/cli.md "runvil test: case
 * threads"). SIGTERM on `runvil run` ignored such a run forever: a stop now has a deadline that
 * escalates to a cancel and then to ending the thread (docs/design/stop.md "The stop
 * deadline").
 */

const workerUrl = new URL("../../dist/test-worker.js", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "cli-stuck-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeTestFolders();
});

/** A scenario case running `lua` in its one section, with extra case keys. */
function scenarioCase(name: string, lua: string, extra: string): string {
  const prompt =
    `---\nname: s\ndescription: s\nrunvil: 0\n---\n\n# S\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`
      .split("\n")
      .map((line) => `      ${line}`)
      .join("\n");
  return `  - name: ${name}\n    prompt: |\n${prompt}\n${extra}`;
}

/**
 * Stuck in C: neither the case's own timeout (a cancel) nor `cancel_after_ms` lands, only ending
 * the thread ends them. (The cases set no `cancel_after_ms`: one that landed before the block
 * started would end the case early.)
 */
const STUCK = {
  "a C-level table.move": "table.move({}, 1, math.maxinteger - 1, 2)",
};

/** Runs without end (a SIGTERM never lands); the case timeout ends it, in or with its thread. */
const HUGE_LEN =
  "local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end })\ntable.insert(t, 1, 'x')";

describe("security: runvil test ends every stuck case within its timeout", () => {
  it("fails each stuck case as a timeout, naming it, and still runs the others", async () => {
    const cases = [
      scenarioCase("first passes", "return 'one'", "    expect: { result: one }\n"),
      ...Object.entries(STUCK).map(([name, lua]) =>
        scenarioCase(name, lua, "    expect: { outcome: succeeded }\n"),
      ),
      scenarioCase(
        "table.insert under a huge __len",
        HUGE_LEN,
        "    expect: { outcome: failed }\n",
      ),
      scenarioCase("last passes", "return 'two'", "    expect: { result: two }\n"),
    ];
    const file = join(dir, "stuck.yaml");
    writeFileSync(file, `cases:\n${cases.join("")}`);
    const io = memoryIo({});
    const code = await testCommand(
      [file],
      { json: true, verbose: false, timeoutMs: 3000, threads: { workerUrl, graceMs: 500 } },
      { ...io, stdout: (text) => io.stdout(text), runInWorker: true },
    );
    expect(code).toBe(1);
    const report = JSON.parse(io.out) as {
      passed: number;
      failed: number;
      cases: { name: string; status: string; failure?: string }[];
    };
    expect(report.cases.map((c) => [c.name, c.status, c.failure])).toEqual([
      ["first passes", "passed", undefined],
      ...Object.keys(STUCK).map((name) => [
        name,
        "failed",
        "the run did not finish within 3000 ms (its thread was ended)",
      ]),
      [
        "table.insert under a huge __len",
        "failed",
        expect.stringMatching(/^the run did not finish within 3000 ms/),
      ],
      ["last passes", "passed", undefined],
    ]);
  });

  it("ends the thread of a case whose tool holds it in a JavaScript loop", async () => {
    const { file } = stuckPrompt();
    const scenarios = join(file, "..", "stuck.yaml");
    writeFileSync(
      scenarios,
      "cases:\n  - name: the tool never returns\n    prompt_file: p.md\n    expect: { outcome: succeeded }\n  - name: after it\n    prompt_file: p.md\n    skip: shows the report goes on\n    expect: { outcome: cancelled }\n",
    );
    const io = memoryIo({});
    const code = await testCommand(
      [scenarios],
      { json: true, verbose: false, timeoutMs: 1000, threads: { workerUrl, graceMs: 500 } },
      { ...io, stdout: (text) => io.stdout(text), runInWorker: true },
    );
    expect(code).toBe(1);
    const report = JSON.parse(io.out) as {
      cases: { name: string; status: string; failure?: string }[];
    };
    expect(report.cases.map((c) => [c.name, c.status, c.failure])).toEqual([
      [
        "the tool never returns",
        "failed",
        "the run did not finish within 1000 ms (its thread was ended)",
      ],
      ["after it", "skipped", undefined],
    ]);
  });
});

describe("security: SIGTERM ends every stuck run (the built runvil)", () => {
  it("escalates a stop that a C-level table.move ignores to ending the thread: exit 143", async () => {
    const { file, store } = promptDir(
      "store.write('started.txt', 'x')\ntable.move({}, 1, math.maxinteger - 1, 2)",
    );
    const exit = await signalWhen(
      ["run", file, "--store", store, "--stop-deadline", "100"],
      join(store, "started.txt"),
      // The SIGTERM must find the run inside table.move: one that lands while store.write is
      // still returning is seen at that effect's end and stops the run plainly.
      { signals: ["SIGTERM"], settleMs: 300 },
    );
    expect(exit).toEqual({
      code: 143,
      signal: null,
      stdout: "",
      stderr: `${STOP_TERMINATED_MESSAGE}\n`,
    });
  });

  it.each([
    ["a C-level pattern search", "return string.find(('a'):rep(1e5), '.-.-.-.-.-.-b')"],
    [
      "table.insert under a huge __len",
      "local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end })\ntable.insert(t, 1, 'x')",
    ],
  ])("ends a run stuck in %s on SIGTERM: exit 143", async (_name, stuck) => {
    const { file, store } = promptDir(`store.write('started.txt', 'x')\n${stuck}`);
    const exit = await signalWhen(
      ["run", file, "--store", store, "--stop-deadline", "100"],
      join(store, "started.txt"),
      { signals: ["SIGTERM"] },
    );
    expect([exit.code, exit.stdout]).toEqual([143, ""]);
    // The stop, its cancel or the end of the thread: whichever reaches it first.
    expect(exit.stderr).toMatch(/^run stopped( \(it did not end within the stop deadline.*\))?\n$/);
  });

  it("escalates a stop that a tool holding the thread ignores, and reports it on --json", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await signalWhen(["run", file, "--json", "--stop-deadline", "100"], marker, {
      signals: ["SIGTERM"],
    });
    expect([exit.code, exit.stderr]).toEqual([143, ""]);
    expect(JSON.parse(exit.stdout)).toEqual({ outcome: "cancelled", stopped: true });
  });

  it("cancels a run whose tool survives the stop and never answers: the cancel ends it", async () => {
    const { dir, file } = promptDir("return tools.call('hang/forever')", "uses: [test/hang]\n");
    // Written from inside the call, so the SIGTERM always finds the call pending.
    const marker = join(dir, "calling.txt");
    writeFileSync(
      join(dir, "hang-plugin.mjs"),
      `import { writeFileSync } from "node:fs";
export default {
  name: "hang-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "hang",
      description: "Never answers, but honours a cancel.",
      tools: [{
        id: "hang/forever",
        description: "Waits for a cancel.",
        parameters: { type: "object", properties: {} },
        trust: "trusted",
        survivesStop: true,
        run: (_args, { signal }) => new Promise((_, reject) => {
          writeFileSync(${JSON.stringify(marker)}, "x");
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      }],
    });
  },
};
`,
    );
    writeFileSync(
      join(dir, "runvil.config.json"),
      '{ "plugins": [{ "module": "./hang-plugin.mjs" }] }',
    );
    const exit = await signalWhen(["run", file, "--stop-deadline", "100"], marker, {
      signals: ["SIGTERM"],
    });
    expect(exit).toEqual({
      code: 143,
      signal: null,
      stdout: "",
      stderr: `${STOP_ESCALATED_MESSAGE}\n`,
    });
  });
});
