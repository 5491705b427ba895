// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators, whose innerText() is the rendered text a person reads, not the DOM property
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Inspector, startInspector } from "./server";
import { recordFetchRun, SteppedRun, tempJournal } from "./test-runs";
import { chromiumSkipReason, launchChromium, pngStats, type TestBrowser } from "./testing";

/** Screenshots go here (one PNG per check), kept for a person to look at after the run. */
const OUTPUT = fileURLToPath(new URL("../test-output/browser/", import.meta.url));

const skip = chromiumSkipReason();
const answers = { page: "Cats sleep a lot.", reply: "Cats mostly sleep." };

let browser: TestBrowser;
let made: Awaited<ReturnType<typeof tempJournal>>;
let inspector: Inspector;
const pages: Page[] = [];

async function open(path: string): Promise<Page> {
  const page = await browser.context.newPage();
  pages.push(page);
  page.on("pageerror", (error) => {
    throw error;
  });
  await page.goto(`${inspector.url}${path}`);
  return page;
}

async function shot(page: Page, name: string, selector?: string) {
  mkdirSync(OUTPUT, { recursive: true });
  const png =
    selector === undefined
      ? await page.screenshot({ fullPage: true })
      : await page.locator(selector).screenshot();
  writeFileSync(`${OUTPUT}${name}.png`, png);
  return pngStats(png);
}

describe.skipIf(skip !== undefined)(
  `the inspector page in headless Chromium${skip === undefined ? "" : ` (skipped: ${skip})`}`,
  () => {
    beforeAll(async () => {
      browser = await launchChromium();
      made = await tempJournal();
      inspector = await startInspector({ journal: made.journal, port: 0, pollMs: 100 });
    });
    afterAll(async () => {
      await inspector?.close();
      await browser?.close();
      await made?.remove();
    });
    afterEach(async () => {
      for (const page of pages.splice(0)) await page.close();
    });

    it("lists the runs, opens one, and shows its timeline (screenshots checked)", async () => {
      const ok = await recordFetchRun(made.journal, answers, { startedAt: Date.now() - 5000 });
      const page = await open("/");
      const row = page.locator(`tr[data-run="${ok}"]`);
      await row.waitFor();
      expect(await row.locator("td").allInnerTexts()).toEqual([
        ok,
        "/work/prompts/fetch-summary.md",
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/),
        expect.stringMatching(/^[\d.]+ (µs|ms|s)$/),
        "succeeded",
        "0",
        "1",
        "1",
        "138",
      ]);
      const list = await shot(page, "run-list", "table.runs");
      expect(list.width).toBeGreaterThan(1000);
      expect(list.colours).toBeGreaterThan(8);
      expect(list.inked).toBeGreaterThan(0.02);

      await row.locator("a.run-link").click();
      await page.waitForURL(`**/runs/${ok}`);
      const timeline = page.getByTestId("timeline");
      await timeline.waitFor();
      expect(await page.getByTestId("entry").count()).toBe(2);
      const items = page.locator('section[data-entry="0.1"] li.item');
      expect(await items.evaluateAll((els) => els.map((e) => e.className))).toEqual([
        "item item-block",
        "item item-tool",
        "item item-store",
        "item item-log",
        "item item-model",
      ]);
      const tool = items.nth(1);
      expect(await tool.innerText()).toContain("web/fetch");
      expect(await tool.locator(".badge.untrusted").innerText()).toBe("untrusted output");
      expect(await tool.locator("pre.tool-output").innerText()).toContain("Cats sleep a lot.");
      expect(await items.nth(2).innerText()).toMatch(/write page\.txt ok/);
      const model = items.nth(4);
      expect(await model.innerText()).toMatch(
        /round 1 \(infer\) · writer = scripted:writer 120 in \/ 18 out/,
      );
      await model.locator("summary").click();
      await expect
        .poll(() => model.locator("pre.reply").innerText(), { timeout: 10_000 })
        .toBe("Cats mostly sleep.");
      expect(await page.locator("#ending pre.result").innerText()).toBe("Cats mostly sleep.");

      const box = await timeline.boundingBox();
      const stats = await shot(page, "run-timeline", '[data-testid="timeline"]');
      // The element's screenshot is the element: its size, with content in it.
      expect(stats.width).toBe(Math.round(box?.width ?? 0));
      expect(stats.height).toBeGreaterThan(300);
      expect(stats.colours).toBeGreaterThan(16);
      expect(stats.inked).toBeGreaterThan(0.05);
      const whole = await shot(page, "run-page");
      expect(whole.height).toBeGreaterThan(stats.height);
    });

    it("shows a failed run's error at its prompt line, in red", async () => {
      const failed = await recordFetchRun(made.journal, answers, { fail: true });
      const page = await open(`/runs/${failed}`);
      const ending = page.locator("#ending");
      await ending.waitFor();
      expect(await ending.locator("h2").innerText()).toBe("Lua error");
      expect(await ending.locator(".where").innerText()).toBe(
        "section Fetch · entry 0.1 · /work/prompts/fetch-summary.md:24",
      );
      expect(await ending.locator(".line.marked").innerText()).toMatch(
        /^\s*24 return summary\.text\s*$/,
      );
      expect(await page.getByTestId("outcome").innerText()).toBe("failed (Lua)");
      const stats = await shot(page, "run-error", "#ending");
      expect(stats.inked).toBeGreaterThan(0.02);
      // The marked line's background (#ffe0e0) is in the picture.
      const png = await page.locator("#ending .line.marked").screenshot();
      const marked = pngStats(png);
      expect(marked.height).toBeGreaterThan(8);
      expect(marked.colours).toBeGreaterThan(2);
    });

    it("renders a tool's untrusted output as text: no script runs, no element is made", async () => {
      const hostile =
        '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><b>bold</b>';
      const id = await recordFetchRun(made.journal, { page: hostile, reply: `<i>${hostile}</i>` });
      const page = await open(`/runs/${id}`);
      let dialogs = 0;
      page.on("dialog", (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      await page.getByTestId("timeline").waitFor();
      const output = page.locator("pre.tool-output");
      expect(await output.innerText()).toContain(hostile);
      expect(await page.locator("#app img, #app script, #app b, #app i").count()).toBe(0);
      expect(await page.locator("#ending pre.result").innerText()).toBe(`<i>${hostile}</i>`);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(dialogs).toBe(0);
      const stats = await shot(page, "untrusted-output", "li.item-tool");
      expect(stats.inked).toBeGreaterThan(0.02);
    });

    it("updates while a run records, then shows its ending", async () => {
      // The page shows what the journal has committed: an effect as soon as it is answered, a
      // run's events with its next effect or, when none comes, within the event window
      // (docs/design/journal.md "Writes and crashes").
      const run = await SteppedRun.start(made.journal, answers);
      await run.step();
      await run.step();
      const page = await open(`/runs/${run.runId}`);
      await page.getByTestId("live").waitFor();
      expect(await page.getByTestId("outcome").innerText()).toBe("running");
      expect(await page.locator("#ending").innerText()).toContain("No ending yet");
      const items = page.locator('section[data-entry="0.1"] li.item');
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(2);
      // The fetch was answered, and no effect follows: its tool_result event (the text inside
      // its envelope) is committed on its own within the event window.
      await expect
        .poll(() => items.nth(1).locator("pre.tool-output").innerText(), { timeout: 10_000 })
        .toContain('<untrusted-output nonce="t1">');
      expect(await items.nth(1).innerText()).not.toContain("in progress");
      const before = await shot(page, "live-before", '[data-testid="timeline"]');
      await run.step();
      await run.step();
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(5);
      expect(await items.nth(4).innerText()).toContain("120 in / 18 out");
      expect(await page.getByTestId("outcome").innerText()).toBe("running");
      await run.finish();
      await expect
        .poll(() => page.getByTestId("outcome").innerText(), { timeout: 10_000 })
        .toBe("succeeded");
      expect(await items.nth(1).locator("pre.tool-output").innerText()).toContain(
        '<untrusted-output nonce="t1">',
      );
      expect(await page.getByTestId("live").count()).toBe(0);
      expect(await page.locator("#ending pre.result").innerText()).toBe("Cats mostly sleep.");
      const after = await shot(page, "live-after", '[data-testid="timeline"]');
      expect(after.height).toBeGreaterThan(before.height);
    });

    it("answers a run that does not exist with a page that says so", async () => {
      const page = await browser.context.newPage();
      pages.push(page);
      const response = await page.goto(`${inspector.url}/runs/20991231-235959-abcdef`);
      expect(response?.status()).toBe(404);
      expect(await page.locator("h1").innerText()).toBe("No such run");
      expect(await page.locator(".message").innerText()).toContain(
        "no run 20991231-235959-abcdef in",
      );
    });
  },
);

// With CI=true the suite above never skips: a missing Chromium fails launchChromium in beforeAll.
