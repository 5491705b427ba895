import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { echoPluginDir } from "../test-plugin";
import { testCommand } from "./test";

const prompt = `---
name: t
description: A tiny prompt.
runvil: 0
---

# T

## Main

\`\`\`lua
store.write('out.txt', 'x' .. args)
log('wrote')
var.n = 2
return 'hi ' .. args
\`\`\`
`;

/** A budgeted-digest-style prompt with no budget of its own: one model round per note. */
const DIGEST = `---
name: digest
description: Summarises each note with a model.
runvil: 0
models:
  writer:
    model: small-model
    max_output_tokens: 200
---

# Digest

## Summarise

\`\`\`lua
models.use('writer')
local lines = {}
for note in args:gmatch('[^;]+') do
  lines[#lines + 1] = '- ' .. models.infer('Note: ' .. note)
end
return table.concat(lines, '\\n')
\`\`\`
`;

/** The case thread script (built); the threaded run of a case. */
const workerUrl = new URL("../../dist/test-worker.js", import.meta.url);

function scenarioDir(cases: string): string {
  const dir = mkdtempSync(join(tmpdir(), "runvil-test-cmd-"));
  writeFileSync(join(dir, "t.md"), prompt);
  writeFileSync(join(dir, "t.yaml"), cases);
  return dir;
}

describe("runvil test", () => {
  it("runs every case, prints the closing line and exits 0 when all pass", async () => {
    const dir = scenarioDir(`cases:
  - name: greets
    prompt_file: t.md
    args: "bo"
    expect:
      result: "hi bo"
      outcome: succeeded
      checkpoints: ["Lua: wrote"]
      store: { "out.txt": "xbo" }
      var: { n: 2 }
  - name: skipped
    skip: "not today"
    prompt_file: t.md
    expect: { result: "x" }
`);
    const io = memoryIo({});
    expect(await runCli(["test", dir], io)).toBe(0);
    expect(io.out.trim().split("\n").at(-1)).toBe("1 passed, 0 failed, 1 skipped");
  });

  it("prints each failing case with expected and actual and exits 1", async () => {
    const dir = scenarioDir(`cases:
  - name: wrong result
    prompt_file: t.md
    args: "bo"
    expect: { result: "bye" }
`);
    const io = memoryIo({});
    expect(await runCli(["test", join(dir, "t.yaml")], io)).toBe(1);
    expect(io.out).toContain("wrong result");
    expect(io.out).toContain('expected: "bye"');
    expect(io.out).toContain('actual:   "hi bo"');
    expect(io.out.trim().split("\n").at(-1)).toBe("0 passed, 1 failed");
  });

  it("filters cases and writes a JSON report", async () => {
    const dir = scenarioDir(`cases:
  - name: alpha
    prompt_file: t.md
    expect: { result: "hi " }
  - name: beta
    prompt_file: t.md
    expect: { result: "nope" }
`);
    const io = memoryIo({});
    expect(await runCli(["test", "--json", "--filter", "ALPHA", dir], io)).toBe(0);
    const report = JSON.parse(io.out) as {
      passed: number;
      failed: number;
      cases: { name: string }[];
    };
    expect(report.passed).toBe(1);
    expect(report.cases.map((c) => c.name)).toEqual(["alpha"]);
  });

  it("stops on a format error before running anything", async () => {
    const dir = scenarioDir(`cases:
  - name: bad
    prompt_file: t.md
    expct: { result: "x" }
`);
    const io = memoryIo({});
    expect(await runCli(["test", dir], io)).toBe(1);
    expect(io.err).toContain('unknown key "expct"');
    expect(io.out).toBe("");
  });

  it("refuses a path that does not exist and a bad timeout", async () => {
    const missing = memoryIo({});
    expect(await runCli(["test", "/no/such/dir"], missing)).toBe(1);
    expect(missing.err).toContain("/no/such/dir");
    const timeout = memoryIo({});
    expect(await runCli(["test", "--timeout", "soon", "x"], timeout)).toBe(2);
    expect(timeout.err).toContain("--timeout must be a whole number of milliseconds, got soon");
  });

  it("adds the plugins of the runvil.config.json beside the scenario file to every case", async () => {
    const { dir } = echoPluginDir();
    writeFileSync(
      join(dir, "echo.yaml"),
      `cases:
  - name: the configured Pack's tool and prelude answer
    prompt: |
      ---
      name: e
      description: Echoes.
      runvil: 0
      uses: [test/echo]
      ---

      # E

      ## Main

      \`\`\`lua
      return tools.call('echo/say', { text = 'hi' }) .. ' ' .. shout('there')
      \`\`\`
    expect: { result: "hi THERE" }
`,
    );
    const io = memoryIo({});
    expect(await runCli(["test", dir], io)).toBe(0);
    expect(io.out.trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
    const elsewhere = mkdtempSync(join(tmpdir(), "runvil-test-cmd-"));
    writeFileSync(join(elsewhere, "echo.yaml"), readFileSync(join(dir, "echo.yaml")));
    const without = memoryIo({});
    expect(await runCli(["test", elsewhere], without)).toBe(1);
    expect(without.out).toContain(
      "it failed with RequirementsUnmet: the environment cannot satisfy",
    );
  });

  it("holds every case to the budget of the runvil.config.json beside it, in this thread and in case threads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-test-budget-"));
    writeFileSync(
      join(dir, "runvil.config.json"),
      '{ "plugins": [], "budget": { "run": { "max_cost_usd": 0.005 } } }',
    );
    writeFileSync(join(dir, "digest.md"), DIGEST);
    const reply = (text: string) =>
      `        - { text: "${text}", usage: { input: 2000, output: 100 } }\n`;
    const digestCase = (name: string, notes: string[], expect: string) =>
      `  - name: ${name}\n    prompt_file: digest.md\n    args: "${notes.join(";")}"\n` +
      "    models:\n      catalog:\n        small-model: { prices: { input: 0.5, output: 1.5 } }\n" +
      `      bind: { writer: small-model }\n      replies:\n${notes.map(reply).join("")}${expect}`;
    writeFileSync(
      join(dir, "digest.scenarios.yaml"),
      `cases:\n${digestCase("two notes fit the configured budget", ["one", "two"], '    expect: { result: "- one\\n- two", usage: { cost_usd: "0.0023" } }\n')}${digestCase(
        "the configured budget stops a long digest at the round that crosses it",
        ["a", "b", "c", "d", "e", "f"],
        [
          "    expect:",
          "      outcome: failed",
          "      error:",
          "        kind: Quota",
          '        message: "budget exceeded: model round 5 of section Summarise on small-model (role writer) cost $0.00115, bringing the run to $0.00575 of its $0.005 budget (run.max_cost_usd, from the Host\'s config)"',
          "      model_requests: [{}, {}, {}, {}, {}]",
          "      events: [{ type: budget_exceeded, turn: 5, scope: run, from: host, check: actual }]",
          "",
        ].join("\n"),
      )}`,
    );
    const io = memoryIo({});
    expect(await runCli(["test", dir], io)).toBe(0);
    expect(io.out.trim().split("\n").at(-1)).toBe("2 passed, 0 failed");
    const threaded = memoryIo({});
    const code = await testCommand(
      [dir],
      { json: false, verbose: false, timeoutMs: 10_000, threads: { workerUrl, graceMs: 500 } },
      { ...threaded, runInWorker: true },
    );
    expect([code, threaded.out.trim().split("\n").at(-1)]).toEqual([0, "2 passed, 0 failed"]);
    // The same cases without the configuration: the long digest is not stopped.
    writeFileSync(join(dir, "runvil.config.json"), '{ "plugins": [] }');
    const unbudgeted = memoryIo({});
    expect(await runCli(["test", dir], unbudgeted)).toBe(1);
    expect(unbudgeted.out.trim().split("\n").at(-1)).toBe("1 passed, 1 failed");
    expect(unbudgeted.out).toContain(
      "expect.outcome: expected the run to end failed, but it succeeded",
    );
  });

  it("stops before any case when the configuration is broken", async () => {
    const { dir, config } = echoPluginDir();
    writeFileSync(config, '{ "plugins": [{ "module": 42 }] }');
    writeFileSync(join(dir, "t.md"), prompt);
    writeFileSync(
      join(dir, "t.yaml"),
      `cases:\n  - name: never runs\n    prompt_file: t.md\n    expect: { result: "x" }\n`,
    );
    const io = memoryIo({});
    expect(await runCli(["test", dir], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toMatch(/t\.yaml: Host error: .*runvil\.config\.json: plugins\[0\]\.module /);
  });
});
