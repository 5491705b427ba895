import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";

/**
 * The Chromium the browser tests drive: RUNVIL_TEST_CHROMIUM, else Debian's `/usr/bin/chromium`
 * (scripts/test-chromium.sh installs it; `.ci/run` sets the variable).
 */
export function chromiumPath(): string {
  return process.env.RUNVIL_TEST_CHROMIUM ?? "/usr/bin/chromium";
}

/**
 * Why the browser tests cannot run here, or undefined when they can. With CI=true they never
 * skip: a missing Chromium fails them ({@link requireChromium}).
 */
export function chromiumSkipReason(): string | undefined {
  if (process.env.CI === "true") return undefined;
  const path = chromiumPath();
  return existsSync(path)
    ? undefined
    : `no Chromium at ${path}: install Debian's chromium (bash scripts/test-chromium.sh) or set RUNVIL_TEST_CHROMIUM`;
}

/** Throws when Chromium is missing (the CI case, where the tests must not skip). */
export function requireChromium(): string {
  const path = chromiumPath();
  if (!existsSync(path)) {
    throw new Error(
      `no Chromium at ${path} (RUNVIL_TEST_CHROMIUM): .ci/run installs it with scripts/test-chromium.sh`,
    );
  }
  return path;
}

/** The launch flags: headless, no sandbox (root in a container), nothing that calls out. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium with a fresh profile; `close()` ends it and removes the profile. */
export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Starts Debian's Chromium through Playwright (nothing is downloaded), 1200×900. */
export async function launchChromium(): Promise<TestBrowser> {
  const executablePath = requireChromium();
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "runvil-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1200, height: 900 },
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
