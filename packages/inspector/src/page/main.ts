import type { RunListView, RunView } from "../view-types";
import { h, replaceChildren } from "./dom";
import { listView } from "./list-view";
import { runPage } from "./run-page";

/** The page's script: renders the run list at `/` and a run at `/runs/ID`, polling while it records. */

const app = document.getElementById("app");
const pollMs = Number(document.body.dataset.pollMs ?? "1000") || 1000;

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${url}: HTTP ${response.status}`);
  return body;
}

function showProblem(root: HTMLElement, message: string): void {
  let banner = document.getElementById("problem");
  if (banner === null) {
    banner = h("p", { id: "problem", class: "problem" });
    root.before(banner);
  }
  replaceChildren(banner, message);
}

function clearProblem(): void {
  document.getElementById("problem")?.remove();
}

/** Which `<details>` are open, by key, so a re-render keeps them open. */
function openKeys(root: HTMLElement): Set<string> {
  const keys = new Set<string>();
  for (const element of root.querySelectorAll<HTMLDetailsElement>("details[data-key]")) {
    if (element.open && element.dataset.key !== undefined) keys.add(element.dataset.key);
  }
  return keys;
}

function reopen(root: HTMLElement, keys: Set<string>): void {
  for (const element of root.querySelectorAll<HTMLDetailsElement>("details[data-key]")) {
    if (element.dataset.key !== undefined && keys.has(element.dataset.key)) element.open = true;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function showList(root: HTMLElement): Promise<void> {
  document.title = "Runs · Runvil inspector";
  let last = "";
  for (;;) {
    try {
      const view = await getJson<RunListView>("/api/runs");
      const text = JSON.stringify(view);
      if (text !== last) {
        replaceChildren(root, listView(view));
        last = text;
      }
      clearProblem();
    } catch (error) {
      showProblem(root, `cannot read the runs: ${(error as Error).message}`);
    }
    await wait(pollMs * 2);
  }
}

async function showRun(root: HTMLElement, id: string): Promise<void> {
  let version: string | null = null;
  for (;;) {
    try {
      const query: string = version === null ? "" : `?version=${encodeURIComponent(version)}`;
      const view: RunView | { unchanged: true; version: string } = await getJson(
        `/api/runs/${encodeURIComponent(id)}${query}`,
      );
      if (!("unchanged" in view)) {
        const keys = openKeys(root);
        replaceChildren(root, runPage(view, pollMs));
        reopen(root, keys);
        version = view.version;
        document.title = `Run ${view.run.id} (${view.run.outcome}) · Runvil inspector`;
        if (view.run.outcome !== "running") return;
      }
      clearProblem();
    } catch (error) {
      showProblem(root, `cannot read run ${id}: ${(error as Error).message}`);
    }
    await wait(pollMs);
  }
}

if (app !== null) {
  const match = /^\/runs\/([^/]+)$/.exec(location.pathname);
  if (match?.[1] === undefined) void showList(app);
  else void showRun(app, decodeURIComponent(match[1]));
}
