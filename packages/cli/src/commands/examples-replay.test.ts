import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { loadScenarioFile } from "@runvil/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";

const examples = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "examples");
const folders = tempFolders();
afterAll(() => folders.removeAll());

/** Every example that runs without a model, with an argument string its scenarios use. */
const CASES: { name: string; file: string; args: string[]; store?: boolean }[] = [
  {
    name: "word-count",
    file: "word-count/word-count.md",
    args: ["--args", "Apples and pears, apples and PEARS"],
  },
  {
    name: "expense-ledger",
    file: "expense-ledger/expense-ledger.md",
    args: ["--args", '{"category":"food","amount":12.5}'],
    store: true,
  },
  {
    name: "report-card",
    file: "report-card/report-card.md",
    args: ["--args", '{"zed":59,"amy":100}'],
  },
  {
    name: "task-tally (concurrent tasks)",
    file: "task-tally/task-tally.md",
    args: ["--args", '["a b","c","d e f"]'],
  },
  {
    name: "writing-brief",
    file: "writing-brief/writing-brief.md",
    args: ["--args", '{"audience":"maintainers","topics":"## Release topics"}'],
  },
];

const acmeBuilt = existsSync(join(examples, "acme-notes", "dist", "index.js"));

describe("every example's recorded run replays byte for byte", () => {
  for (const example of CASES) {
    it(example.name, async () => {
      const folder = folders.make();
      const journal = join(folder, "runs.db");
      const io = diskIo();
      const store = example.store === true ? ["--store", join(folder, "store")] : [];
      const code = await runCli(
        [
          "run",
          join(examples, example.file),
          "--journal",
          journal,
          "--seed",
          "7",
          "--input",
          "none",
          ...store,
          ...example.args,
        ],
        io,
      );
      expect(io.err).toBe("");
      expect(code).toBe(0);
      io.reset();
      expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
      expect(io.out).toMatch(
        /: reproduced \(\d+ effects answered by the journal, \d+ events identical, the same result\)\n$/,
      );
      expect(io.err).toBe("");
    });
  }

  it.skipIf(!acmeBuilt)(
    `acme-notes (a third-party Pack from its config)${acmeBuilt ? "" : " (skipped: examples/acme-notes/dist is not built; pnpm build builds it)"}`,
    async () => {
      const folder = folders.make();
      const journal = join(folder, "runs.db");
      const io = diskIo();
      const args = [
        "--args",
        "done: fixed the login; todo: write the docs",
        "--store",
        join(folder, "store"),
      ];
      expect(
        await runCli(
          [
            "run",
            join(examples, "acme-notes", "notes.md"),
            "--journal",
            journal,
            "--input",
            "none",
            ...args,
          ],
          io,
        ),
      ).toBe(0);
      io.reset();
      expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
      expect(io.out).toContain(": reproduced (");
    },
  );
});

const packagesDir = join(examples, "..", "packages");
const pluginsDir = join(examples, "..", "plugins");

/**
 * A plugin module serving a scenario case's scripted models (the testkit's ScriptedModelProvider
 * over `models.json` beside it) and its web (the official web Pack on the case's `web.pages`, the
 * case's `web.search` as the search provider): `runvil run` then talks to them as to live ones.
 */
const SCRIPTED_PLUGIN = `import { readFileSync } from "node:fs";
import { FixtureSearchProvider, ScriptedModelProvider, fixturePageFetcher } from "${pathToFileURL(join(packagesDir, "testkit", "dist", "index.js")).href}";
import { createWebPack } from "${pathToFileURL(join(pluginsDir, "web", "dist", "index.js")).href}";
const scripted = JSON.parse(readFileSync(new URL("./scripted.json", import.meta.url), "utf8"));
export default {
  name: "@runvil/plugin-web",
  setup(api) {
    api.addModelProvider(new ScriptedModelProvider(scripted.models));
    api.addPack(createWebPack({ fetchPage: fixturePageFetcher(scripted.web.pages) }));
    api.provideService("runvil/search-provider", new FixtureSearchProvider(scripted.web.search));
  },
};
`;

/** The examples that talk to a model, each run on the first case of its scenario file. */
const MODEL_EXAMPLES = [
  "budgeted-digest/budgeted-digest",
  "issue-triage/issue-triage",
  "meeting-actions/meeting-actions",
  "research-assistant/research-assistant",
  "review-triage/review-triage",
  "task-delegate/task-delegate",
];

describe("every model example's recorded run replays byte for byte", () => {
  it("covers every example folder (a new one joins a list here)", async () => {
    const { readdirSync } = await import("node:fs");
    const covered = new Set([
      ...CASES.map((c) => c.file.split("/")[0]),
      ...MODEL_EXAMPLES.map((e) => e.split("/")[0]),
      "acme-notes",
      "mcp-files", // its own package's test records and replays it with its real MCP server
      "durable-approval", // below: its operator answers from stdin
    ]);
    const folders = readdirSync(examples, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.filter((name) => !covered.has(name))).toEqual([]);
  });

  for (const example of MODEL_EXAMPLES) {
    it(example.split("/")[0] as string, async () => {
      const scenario = loadScenarioFile(join(examples, `${example}.scenarios.yaml`));
      const first = scenario.cases[0];
      if (first === undefined) throw new Error(`${example}: no scenario case`);
      const folder = folders.make();
      writeFileSync(join(folder, "scripted-plugin.mjs"), SCRIPTED_PLUGIN);
      writeFileSync(
        join(folder, "scripted.json"),
        JSON.stringify({ models: first.models, web: first.web }),
      );
      const config = join(folder, "runvil.config.json");
      writeFileSync(config, '{ "plugins": [{ "module": "./scripted-plugin.mjs" }] }');
      const store = join(folder, "store");
      for (const [path, text] of Object.entries(first.store)) {
        mkdirSync(dirname(join(store, path)), { recursive: true });
        writeFileSync(join(store, path), text);
      }
      // Every role binds as the scenario binds it: to its models.bind id, else scripted-model.
      const promptFile = join(examples, `${example}.md`);
      const parsed = createPromptParser(await loadLuaRuntime())(
        new Uint8Array(readFileSync(promptFile)),
        { path: promptFile },
      );
      if (!parsed.ok) throw new Error(`${example}: the prompt does not parse`);
      const bindings = parsed.prompt.frontmatter.models.flatMap((role) => [
        "--model",
        `${role.label}=${first.models.bind[role.label] ?? "scripted-model"}`,
      ]);
      const journal = join(folder, "runs.db");
      const io = diskIo();
      const code = await runCli(
        [
          "run",
          promptFile,
          "--config",
          config,
          "--journal",
          journal,
          "--store",
          store,
          "--seed",
          "7",
          "--input",
          "none",
          ...bindings,
          ...(first.args === undefined ? [] : ["--args", first.args]),
        ],
        io,
      );
      expect(io.err).toBe("");
      expect(code).toBe(0);
      // The live run did what the scenario says (its scripted parties served it faithfully).
      if (first.expect.result !== undefined) expect(io.out).toBe(`${first.expect.result}\n`);
      io.reset();
      const replayed = await runCli(["replay", "--all", "--journal", journal], io);
      expect(replayed, io.out).toBe(0);
      expect(io.out).toMatch(
        /: reproduced \(\d+ effects answered by the journal, \d+ events identical(?: per chain)?, the same result\)\n$/,
      );
      expect(io.err).toBe("");
    });
  }
});

describe("the operator example's recorded run replays byte for byte", () => {
  it("durable-approval, run locally with the operator's answers on stdin", async () => {
    const folder = folders.make();
    const journal = join(folder, "runs.db");
    const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "bin.js");
    const run = spawnSync(
      process.execPath,
      [
        bin,
        "run",
        join(examples, "durable-approval", "approval.md"),
        "--journal",
        journal,
        "--seed",
        "7",
        "--input",
        "stdin",
        "--args",
        "order 7: the wrong colour (EUR 120)",
      ],
      { input: "maybe\nNo, offer an exchange\n", encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("declined: send to review for order 7");
    expect(run.status).toBe(0);
    const io = diskIo();
    expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
    expect(io.out).toMatch(
      /: reproduced \(\d+ effects answered by the journal, \d+ events identical, the same result\)\n$/,
    );
    expect(io.err).toBe("");
  });
});
