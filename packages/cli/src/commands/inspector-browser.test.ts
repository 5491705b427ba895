// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators, whose innerText() is the rendered text a person reads, not the DOM property
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  chromiumSkipReason,
  launchChromium,
  pngStats,
  type TestBrowser,
} from "@runvil/inspector/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";
import { ScriptedOpenAiServer, triageAnswers } from "../test-openai-server";

/** Screenshots of the inspector over real `runvil run` runs, kept after the test. */
const OUTPUT = fileURLToPath(new URL("../../test-output/inspector/", import.meta.url));
const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../../examples/issue-triage/", import.meta.url));
const ISSUE = "The app crashes on start since 2.1, and the install page still shows the old steps.";

const BROKEN = `---
name: broken
description: Writes a note, then indexes nil.
runvil: 0
---

# Broken

\`\`\`lua
store.write('note.md', 'kept')
\`\`\`

## Read

\`\`\`lua
local missing = nil
return missing.field
\`\`\`
`;

const skip = chromiumSkipReason();
const folders = tempFolders();
let browser: TestBrowser;
let serve: ChildProcess;
let address = "";
let folder = "";
let journal = "";
let triageId = "";
let brokenId = "";

/** Records the example's triage run (a local OpenAI-compatible server) and a failing run. */
async function recordRuns(journal: string, folder: string): Promise<void> {
  const server = new ScriptedOpenAiServer(triageAnswers());
  const baseURL = await server.start();
  try {
    const config = JSON.parse(readFileSync(join(EXAMPLE, "runvil.config.json"), "utf8"));
    config.providers.local.options.baseURL = baseURL;
    config.providers.local.retry = { initialDelayMs: 10, maxDelayMs: 20 };
    writeFileSync(join(folder, "runvil.config.json"), JSON.stringify(config));
    const run = diskIo();
    const code = await runCli(
      [
        "run",
        join(EXAMPLE, "issue-triage.md"),
        "--config",
        join(folder, "runvil.config.json"),
        "--journal",
        journal,
        "--args",
        ISSUE,
      ],
      run,
    );
    expect(run.err.split("\n").filter((l) => l !== "" && !l.startsWith("model usage"))).toEqual([]);
    expect(code).toBe(0);
  } finally {
    server.close();
  }
  writeFileSync(join(folder, "broken.md"), BROKEN);
  expect(await runCli(["run", join(folder, "broken.md"), "--journal", journal], diskIo())).toBe(1);
  const list = diskIo();
  await runCli(["runs", "list", "--journal", journal, "--json"], list);
  const runs = JSON.parse(list.out) as { id: string; prompt: string }[];
  brokenId = runs.find((r) => r.prompt.endsWith("broken.md"))?.id ?? "";
  triageId = runs.find((r) => r.prompt.endsWith("issue-triage.md"))?.id ?? "";
}

/** Starts the built `runvil runs serve` and reads the address it prints. */
function startServe(journal: string): Promise<string> {
  serve = spawn(process.execPath, [BIN, "runs", "serve", "--journal", journal, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    serve.stdout?.on("data", (d) => {
      out += String(d);
      const found = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    serve.stderr?.on("data", (d) => {
      err += String(d);
    });
    serve.on("exit", (code) => reject(new Error(`runvil runs serve exited ${code}: ${err}`)));
  });
}

async function shot(page: Page, name: string, selector: string) {
  mkdirSync(OUTPUT, { recursive: true });
  const png = await page.locator(selector).screenshot();
  writeFileSync(join(OUTPUT, `${name}.png`), png);
  return { ...pngStats(png), png };
}

describe.skipIf(skip !== undefined)(
  `runvil runs serve over real runs, in headless Chromium${skip === undefined ? "" : ` (skipped: ${skip})`}`,
  () => {
    beforeAll(async () => {
      folder = folders.make();
      journal = join(folder, "runs.db");
      await recordRuns(journal, folder);
      address = await startServe(journal);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      if (serve !== undefined && serve.exitCode === null) {
        const exited = new Promise((resolve) => serve.once("exit", resolve));
        serve.kill("SIGTERM");
        await exited;
      }
      folders.removeAll();
    });

    it("shows the triage run: model rounds with usage and latency, tool calls, the result", async () => {
      const page = await browser.context.newPage();
      await page.goto(`${address}/`);
      await page.locator("table.runs tbody tr").first().waitFor();
      expect(await page.locator("table.runs tbody tr").count()).toBe(2);
      const row = page.locator(`tr[data-run="${triageId}"]`);
      expect(await row.locator("td").nth(4).innerText()).toBe("succeeded");
      expect(await row.locator("td").nth(5).innerText()).toBe("0");
      expect(await row.locator("td").nth(6).innerText()).toBe("2");
      // Its two calls of the local tool add_label (journal.md "What a tool call count counts").
      expect(await row.locator("td").nth(7).innerText()).toBe("2");
      expect(await row.locator("td").nth(8).innerText()).toBe("448");
      const list = await shot(page, "run-list", "table.runs");
      expect(list.inked).toBeGreaterThan(0.02);

      await row.locator("a.run-link").click();
      await page.getByTestId("timeline").waitFor();
      expect(await page.getByTestId("summary").innerText()).toMatch(
        /tool calls\s+2 \(0 catalog, 2 local, 0 task built-ins\)/,
      );
      const items = page.locator('section[data-entry="0.1"] li.item');
      const kinds = await items.evaluateAll((els) => els.map((e) => e.className.slice(10)));
      expect(kinds.filter((k) => k === "model" || k === "tool")).toEqual([
        "model",
        "tool",
        "tool",
        "model",
      ]);
      const rounds = page.locator('section[data-entry="0.1"] li.item-model');
      const first = rounds.nth(0);
      expect(await first.locator("summary").innerText()).toMatch(
        /round 1 \(loop\) · triager = local:qwen3 180 in \/ 24 out · [\d.]+ (µs|ms|s) · finish tool_calls/,
      );
      await first.locator("summary").click();
      expect(await first.locator(".retry").innerText()).toMatch(
        /^attempt 1 failed: rate limited \(429\); retried after \d+ ms$/,
      );
      expect(await first.locator(".message.role-user pre").innerText()).toBe(`Issue:\n\n${ISSUE}`);
      expect(await first.locator("ul.calls li").count()).toBe(2);
      expect(await rounds.nth(1).locator("summary").innerText()).toMatch(/230 in \/ 14 out/);
      const tools = page.locator('section[data-entry="0.1"] li.item-tool');
      expect(await tools.nth(0).innerText()).toContain("add_label (local) by model · call c1");
      expect(JSON.parse(await tools.nth(0).locator("pre.arguments").innerText())).toEqual({
        label: "bug",
      });
      expect(await tools.nth(1).locator("pre.tool-output").innerText()).toBe("added docs");
      expect(await page.locator("#ending pre.result").innerText()).toBe(
        "bug, docs: It crashes on start, and the install docs are out of date.",
      );
      const timeline = await shot(page, "triage-timeline", '[data-testid="timeline"]');
      expect(timeline.height).toBeGreaterThan(300);
      expect(timeline.colours).toBeGreaterThan(16);
      expect(timeline.inked).toBeGreaterThan(0.05);
      await page.close();
    });

    it("shows the failed run's error at its prompt line, and its store change", async () => {
      const page = await browser.context.newPage();
      await page.goto(`${address}/runs/${brokenId}`);
      const ending = page.locator("#ending");
      await ending.locator("h2").waitFor();
      expect(await ending.locator("h2").innerText()).toBe("Lua error");
      expect(await ending.locator(".line.marked").innerText()).toMatch(
        /^\s*17 return missing\.field\s*$/,
      );
      const store = page.locator('section[data-entry="0.0"] li.item-store');
      expect(await store.innerText()).toMatch(/write note\.md ok/);
      expect(await store.locator("pre.store-change").innerText()).toBe("kept");
      const stats = await shot(page, "broken-ending", "#ending");
      expect(stats.inked).toBeGreaterThan(0.02);
      await page.close();
    });

    it("updates while a real run records, then shows how it ended", async () => {
      const server = new ScriptedOpenAiServer(triageAnswers());
      const baseURL = await server.start();
      const release = server.hold(3);
      const config = JSON.parse(readFileSync(join(EXAMPLE, "runvil.config.json"), "utf8"));
      config.providers.local.options.baseURL = baseURL;
      config.providers.local.retry = { initialDelayMs: 10, maxDelayMs: 20 };
      const configFile = join(folder, "live.config.json");
      writeFileSync(configFile, JSON.stringify(config));
      const run = runCli(
        [
          "run",
          join(EXAMPLE, "issue-triage.md"),
          "--config",
          configFile,
          "--journal",
          journal,
          "--args",
          ISSUE,
        ],
        diskIo(),
      );
      try {
        // The run is inside its second model round, which the server holds.
        await expect.poll(() => server.bodies.length, { timeout: 30_000 }).toBe(3);
        const page = await browser.context.newPage();
        await page.goto(`${address}/`);
        const running = page.locator("tr.outcome-running");
        await running.waitFor();
        const id = (await running.getAttribute("data-run")) ?? "";
        await running.locator("a.run-link").click();
        await page.getByTestId("live").waitFor();
        expect(await page.getByTestId("outcome").innerText()).toBe("running");
        expect(await page.locator("#ending").innerText()).toContain("No ending yet");
        const rounds = page.locator('section[data-entry="0.1"] li.item-model');
        // Round 1 was answered (its effect is committed); round 2 is open, and its start shows
        // though no effect followed it (the event window commits it on its own).
        await expect.poll(() => rounds.count(), { timeout: 10_000 }).toBe(2);
        expect(await rounds.nth(0).locator("summary").innerText()).toMatch(/180 in \/ 24 out/);
        expect(await rounds.nth(1).locator("summary").innerText()).toContain("in progress");
        const before = await shot(page, "live-before", '[data-testid="timeline"]');
        release();
        expect(await run).toBe(0);
        await expect
          .poll(() => page.getByTestId("outcome").innerText(), { timeout: 15_000 })
          .toBe("succeeded");
        expect(await rounds.count()).toBe(2);
        expect(await rounds.nth(1).locator("summary").innerText()).toMatch(/230 in \/ 14 out/);
        expect(await rounds.nth(1).locator("summary").innerText()).not.toContain("in progress");
        expect(await page.getByTestId("live").count()).toBe(0);
        expect(page.url()).toBe(`${address}/runs/${id}`);
        // Round 2 was drawn already (in progress); now with its tokens, latency and finish.
        const after = await shot(page, "live-after", '[data-testid="timeline"]');
        expect(after.height).toBeGreaterThanOrEqual(before.height);
        expect(after.png.equals(before.png)).toBe(false);
        await page.close();
      } finally {
        release();
        await run.catch(() => 1);
        await server.close();
      }
    });

    it("stops on SIGTERM", async () => {
      const exited = new Promise<number | null>((resolve) => serve.once("exit", resolve));
      serve.kill("SIGTERM");
      expect(await exited).toBe(0);
    });
  },
);
