import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { InspectorError } from "./inspector-error";
import { type Inspector, startInspector } from "./server";
import { recordFetchRun, SteppedRun, tempJournal } from "./test-runs";
import type { RunListView, RunView } from "./view-types";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const answers = { page: "Cats sleep a lot.", reply: "Cats mostly sleep." };

async function serve(): Promise<{
  inspector: Inspector;
  made: Awaited<ReturnType<typeof tempJournal>>;
}> {
  const made = await tempJournal();
  cleanups.push(made.remove);
  const inspector = await startInspector({ journal: made.journal, port: 0 });
  cleanups.push(() => inspector.close());
  return { inspector, made };
}

/** A GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the inspector's server", () => {
  it("serves the run list and each run as JSON, newest first", async () => {
    const { inspector, made } = await serve();
    const older = await recordFetchRun(made.journal, answers, { startedAt: Date.now() - 60_000 });
    const newer = await recordFetchRun(made.journal, answers, { fail: true });
    const response = await fetch(`${inspector.url}/api/runs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const list = (await response.json()) as RunListView;
    expect(list.journal).toBe(made.file);
    expect(list.runs.map((r) => [r.id, r.outcome, r.errorKind])).toEqual([
      [newer, "failed", "Lua"],
      [older, "succeeded", null],
    ]);
    const view = (await (await fetch(`${inspector.url}/api/runs/${older}`)).json()) as RunView;
    expect(view.run.id).toBe(older);
    expect(view.entries).toHaveLength(2);
    // A prefix names the run too.
    const byPrefix = (await (
      await fetch(`${inspector.url}/api/runs/${older.slice(0, -2)}`)
    ).json()) as RunView;
    expect(byPrefix.run.id).toBe(older);
  });

  it("answers `unchanged` while a run's record has not grown", async () => {
    const { inspector, made } = await serve();
    const run = await SteppedRun.start(made.journal, answers);
    await run.step();
    const first = (await (await fetch(`${inspector.url}/api/runs/${run.runId}`)).json()) as RunView;
    expect(first.run.outcome).toBe("running");
    const again = await (
      await fetch(`${inspector.url}/api/runs/${run.runId}?version=${first.version}`)
    ).json();
    expect(again).toEqual({ unchanged: true, version: first.version });
    await run.step();
    const grown = (await (
      await fetch(`${inspector.url}/api/runs/${run.runId}?version=${first.version}`)
    ).json()) as RunView;
    expect(grown.version).not.toBe(first.version);
    expect(grown.entries[1]?.items.map((i) => i.type)).toEqual(["block", "tool"]);
    await run.finish();
  });

  it("serves the page shell, its script and style with a strict content policy", async () => {
    const { inspector, made } = await serve();
    const id = await recordFetchRun(made.journal, answers);
    for (const path of ["/", `/runs/${id}`]) {
      const response = await fetch(`${inspector.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain('<script src="/page.js"></script>');
      expect(html).toContain(`<span class="journal">${made.file}</span>`);
    }
    const script = await fetch(`${inspector.url}/page.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const text = await script.text();
    expect(text).toContain("/api/runs");
    // The page builds its DOM from text nodes only.
    expect(text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect((await fetch(`${inspector.url}/page.css`)).headers.get("content-type")).toBe(
      "text/css; charset=utf-8",
    );
  });

  it("answers a run id that does not exist with a 404 page that says so", async () => {
    const { inspector, made } = await serve();
    const page = await fetch(`${inspector.url}/runs/20991231-235959-abcdef`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain("<h1>No such run</h1>");
    expect(html).toContain(
      `no run 20991231-235959-abcdef in ${made.file} (the run list shows the recorded runs)`,
    );
    const api = await fetch(`${inspector.url}/api/runs/20991231-235959-abcdef`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({
      error: `no run 20991231-235959-abcdef in ${made.file} (the run list shows the recorded runs)`,
    });
    const escaped = await (await fetch(`${inspector.url}/runs/%3Cb%3Ebold`)).text();
    expect(escaped).toContain("no run &lt;b&gt;bold in");
    expect(escaped).not.toContain("<b>bold");
  });

  it("says which runs a prefix of several names", async () => {
    const { inspector, made } = await serve();
    const a = await recordFetchRun(made.journal, answers);
    const b = await recordFetchRun(made.journal, answers);
    const prefix = a.slice(0, 8);
    expect(b.startsWith(prefix)).toBe(true);
    const page = await fetch(`${inspector.url}/runs/${prefix}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(`${prefix} names several runs`);
  });

  it("refuses other methods, other paths and other Host names", async () => {
    const { inspector } = await serve();
    expect((await fetch(`${inspector.url}/api/runs`, { method: "POST" })).status).toBe(405);
    const missing = await fetch(`${inspector.url}/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("nothing at /nothing");
    expect(await getWithHost(`${inspector.url}/api/runs`, "evil.example:80")).toBe(421);
    expect(await getWithHost(`${inspector.url}/api/runs`, `localhost:${inspector.port}`)).toBe(200);
  });

  it("names a port in use and what to do", async () => {
    const { inspector, made } = await serve();
    const second = startInspector({ journal: made.journal, port: inspector.port });
    await expect(second).rejects.toThrow(InspectorError);
    await expect(second).rejects.toThrow(
      `127.0.0.1:${inspector.port} is in use (another program, or another runvil runs serve, listens there); pass --port N for another port, or --port 0 for any free one`,
    );
    await expect(second).rejects.toMatchObject({ reason: "port_in_use" });
  });

  it("refuses a port that is not one", async () => {
    const made = await tempJournal();
    cleanups.push(made.remove);
    await expect(startInspector({ journal: made.journal, port: 70_000 })).rejects.toThrow(
      "the port must be a whole number from 0 to 65535; got 70000",
    );
    await expect(startInspector({ journal: made.journal, port: 0, pollMs: 5 })).rejects.toThrow(
      "pollMs must be a whole number of at least 50; got 5",
    );
  });
});
