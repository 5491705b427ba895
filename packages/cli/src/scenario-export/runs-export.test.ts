import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadScenarioFile } from "@runvil/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";
import { ScriptedOpenAiServer, triageAnswers } from "../test-openai-server";

const folders = tempFolders();
afterAll(() => folders.removeAll());

const triage = fileURLToPath(new URL("../../../../examples/issue-triage/", import.meta.url));
const ISSUE = "The app crashes on start since 2.1, and the install page still shows the old steps.";

type Io = ReturnType<typeof diskIo>;

/** The id of the only run recorded in `journal`. */
async function onlyRunId(journal: string, io: Io): Promise<string> {
  io.reset();
  expect(await runCli(["runs", "list", "--json", "--journal", journal], io)).toBe(0);
  const runs = JSON.parse(io.out) as { id: string }[];
  expect(runs).toHaveLength(1);
  return (runs[0] as { id: string }).id;
}

/** Exports the only run of `journal` into `file`, then runs `runvil test` on it. */
async function exportAndTest(journal: string, file: string, io: Io): Promise<string> {
  const id = await onlyRunId(journal, io);
  io.reset();
  const exported = await runCli(
    ["runs", "export", id, "--scenario", file, "--journal", journal],
    io,
  );
  expect(io.err).toBe("");
  expect(exported).toBe(0);
  expect(io.out).toBe(
    `${file}: wrote the case "recorded run ${id}" (runvil test ${file} runs it offline)\n`,
  );
  io.reset();
  const tested = await runCli(["test", file], io);
  expect(io.out, readFileSync(file, "utf8")).toBe("1 passed, 0 failed\n");
  expect(tested).toBe(0);
  return id;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

describe("runvil runs export --scenario", () => {
  it("keeps a run of issue-triage against a local OpenAI-compatible server as an offline test", async () => {
    const folder = folders.make();
    const server = new ScriptedOpenAiServer(triageAnswers());
    const baseURL = await server.start();
    const config = JSON.parse(readFileSync(join(triage, "runvil.config.json"), "utf8"));
    config.providers.local.options.baseURL = baseURL;
    config.providers.local.retry = { initialDelayMs: 10, maxDelayMs: 20 };
    writeFileSync(join(folder, "runvil.config.json"), JSON.stringify(config));
    const journal = join(folder, "runs.db");
    const io = diskIo();
    const code = await runCli(
      [
        "run",
        join(triage, "issue-triage.md"),
        "--config",
        join(folder, "runvil.config.json"),
        "--journal",
        journal,
        "--input",
        "none",
        "--args",
        ISSUE,
      ],
      io,
    );
    await server.close(); // the scenario must pass with no server
    expect(io.err).toBe("");
    expect(code).toBe(0);
    const file = join(folder, "triage.scenarios.yaml");
    await exportAndTest(journal, file, io);
    const [exported] = loadScenarioFile(file).cases;
    expect(exported?.promptPath).toBe(join(triage, "issue-triage.md"));
    expect(exported?.models.bind).toEqual({ triager: "local:qwen3" });
    expect(exported?.models.catalog?.["local:qwen3"]).toMatchObject({
      contextWindow: 40960,
      maxOutputTokens: 8192,
    });
    expect(exported?.models.replies).toMatchObject([
      {
        kind: "message",
        toolCalls: [
          { id: "c1", name: "add_label", arguments: { label: "bug" } },
          { id: "c2", name: "add_label", arguments: { label: "docs" } },
        ],
      },
      { kind: "message", text: "It crashes on start, and the install docs are out of date." },
    ]);
    expect(exported?.expect.result).toBe(
      "bug, docs: It crashes on start, and the install docs are out of date.",
    );
    expect(exported?.expect.usage).toMatchObject({ rounds: 2 });
  });

  it("scripts the web pages and search results a run fetched from a local HTTP server, and its store", async () => {
    const folder = folders.make();
    const web = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname === "/search") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            results: [
              { title: "Lua 5.4", url: "https://www.lua.org/versions.html", content: "2020" },
            ],
          }),
        );
        return;
      }
      if (url.pathname === "/missing") {
        res.writeHead(404, { "content-type": "text/plain" }).end("no");
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("Lua 5.4 was released in 2020.");
    });
    const base = await listen(web);
    writeFileSync(
      join(folder, "runvil.config.json"),
      JSON.stringify({
        plugins: [
          { module: "@runvil/plugin-web", options: { fetch: { allowPrivateNetwork: true } } },
          { module: "@runvil/plugin-web", export: "searxngSearchPlugin", options: { url: base } },
        ],
      }),
    );
    writeFileSync(
      join(folder, "web-note.md"),
      [
        "---",
        "name: web-note",
        "description: Fetches a page and searches, and keeps both in the store.",
        "runvil: 0",
        "uses: [web]",
        "---",
        "",
        "# Web note",
        "",
        "## Main",
        "",
        "```lua",
        "local page = tools.call('web/fetch', { url = args })",
        "local found = tools.call('web/search', { query = 'lua release' })",
        "local before = store.read('notes.md')",
        "store.append('notes.md', '- fetched ' .. args .. '\\n')",
        "store.write('page.txt', page)",
        "return before .. ' | ' .. #page .. ' | ' .. found",
        "```",
        "",
      ].join("\n"),
    );
    const store = join(folder, "store");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(store);
    writeFileSync(join(store, "notes.md"), "# Notes\n");
    const journal = join(folder, "runs.db");
    const io = diskIo();
    const code = await runCli(
      [
        "run",
        join(folder, "web-note.md"),
        "--journal",
        journal,
        "--store",
        store,
        "--input",
        "none",
        "--args",
        `${base}/page`,
      ],
      io,
    );
    expect(io.err).toBe("");
    expect(code).toBe(0);
    // A page the server refused: a failure the scenario's web cannot give, so nothing is written.
    const refusedJournal = join(folder, "refused.db");
    const failing = diskIo();
    await runCli(
      [
        "run",
        join(folder, "web-note.md"),
        "--journal",
        refusedJournal,
        "--store",
        store,
        "--input",
        "none",
        "--args",
        `${base}/missing`,
      ],
      failing,
    );
    web.closeAllConnections();
    await new Promise((resolve) => web.close(resolve));
    failing.reset();
    const refusedFile = join(folder, "refused.scenarios.yaml");
    expect(
      await runCli(
        ["runs", "export", "last", "--scenario", refusedFile, "--journal", refusedJournal],
        failing,
      ),
    ).toBe(1);
    expect(failing.err).toMatch(
      new RegExp(
        `^run \\d{8}-\\d{6}-[0-9a-f]{6}: effect 0\\.1/1 \\(tool web/fetch of "${base}/missing", section "Main"\\) failed with "web_fetch: the page at ${base}/missing answered HTTP 404 Not Found": a scenario's web serves a page \\(or search results\\) or their absence, not another failure\n$`,
      ),
    );
    expect(existsSync(refusedFile)).toBe(false);
    const file = join(folder, "web-note.scenarios.yaml");
    await exportAndTest(journal, file, io);
    const [exported] = loadScenarioFile(file).cases;
    expect(exported?.promptPath).toBe(join(folder, "web-note.md"));
    expect(exported?.web.pages).toEqual({ [`${base}/page`]: "Lua 5.4 was released in 2020." });
    expect(Object.keys(exported?.web.search ?? {})).toEqual(["lua release"]);
    expect(exported?.store).toEqual({ "notes.md": "# Notes\n" });
    expect(exported?.expect.store).toMatchObject({
      "notes.md": `# Notes\n- fetched ${base}/page\n`,
    });
  });

  it("scripts the operator's answers, and prints the case without --scenario FILE", async () => {
    const folder = folders.make();
    writeFileSync(
      join(folder, "greet.md"),
      "---\nname: greet\ndescription: Asks for a name and greets it.\nrunvil: 0\nuses: [user-input]\n---\n\n# Greet\n\n## Main\n\n```lua\nlocal name = input.ask()\nlocal town = input.ask()\nreturn 'hello ' .. name .. ' of ' .. town\n```\n",
    );
    const journal = join(folder, "runs.db");
    const answers = ["Ada", "London"];
    const base = diskIo();
    const io = {
      ...base,
      operator: { isTTY: false, broker: () => ({ ask: async () => answers.shift() ?? "" }) },
    };
    const code = await runCli(
      ["run", join(folder, "greet.md"), "--journal", journal, "--input", "stdin"],
      io,
    );
    expect(code).toBe(0);
    base.reset();
    expect(await runCli(["runs", "export", "last", "--scenario", "--journal", journal], base)).toBe(
      0,
    );
    const text = base.out;
    expect(text).toContain("    operator:\n      - Ada\n      - London\n");
    expect(text).toContain("      result: hello Ada of London\n");
    // Printed, the case carries the prompt itself (no file to be relative to).
    expect(text).toContain("    prompt: |\n      ---\n      name: greet\n");
    const file = join(folder, "printed.scenarios.yaml");
    writeFileSync(file, text);
    base.reset();
    expect(await runCli(["test", file], base)).toBe(0);
    expect(base.out).toBe("1 passed, 0 failed\n");
  });
});
