import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Journal } from "@runvil/journal";
import { messagePage, pageShell } from "./html";
import { InspectorError } from "./inspector-error";
import { PAGE_CSS } from "./page-css";
import { runListRow } from "./run-list";
import { runVersion, runView } from "./run-view";
import type { RunListView } from "./view-types";

/** The port `runvil runs serve` listens on when none is given. */
export const DEFAULT_PORT = 4780;

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  /** The journal to show (the caller opens it and closes it after the inspector). */
  readonly journal: Journal;
  /** How the header names the journal (default: its location). */
  readonly shown?: string;
  /** The port on 127.0.0.1 (default {@link DEFAULT_PORT}; 0: any free port). */
  readonly port?: number;
  /** How often the page polls the journal while a run records, in ms (default 1,000). */
  readonly pollMs?: number;
}

/** A running inspector. */
export interface Inspector {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The page of one run. */
  runUrl(id: string): string;
  /** Stops serving (open connections are closed); the journal stays open. */
  close(): Promise<void>;
}

const PAGE_SCRIPT = fileURLToPath(new URL("../dist/page.js", import.meta.url));

let script: string | undefined;

function pageScript(): string {
  if (script !== undefined) return script;
  try {
    script = readFileSync(PAGE_SCRIPT, "utf8");
  } catch (error) {
    throw new InspectorError(
      "page_missing",
      `${PAGE_SCRIPT}: the inspector page's script is missing; build @runvil/inspector (pnpm --filter @runvil/inspector build)`,
      { cause: error },
    );
  }
  return script;
}

const SECURITY_HEADERS = {
  // The page's own script and style only: nothing a run recorded can run or load anything.
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": type,
    "content-length": Buffer.byteLength(body),
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

const HTML = "text/html; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON_TYPE, JSON.stringify(value));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The run id of `/runs/ID` or `/api/runs/ID`; undefined for a path that is not one. */
function runIdOf(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  if (rest === "" || rest.includes("/")) return undefined;
  return decodeURIComponent(rest);
}

class InspectorServer {
  readonly #journal: Journal;
  readonly #shown: string;
  readonly #pollMs: number;
  #port = 0;

  constructor(journal: Journal, shown: string, pollMs: number) {
    this.#journal = journal;
    this.#shown = shown;
    this.#pollMs = pollMs;
  }

  set port(port: number) {
    this.#port = port;
  }

  /** Only this machine's names for the server: a page of another site cannot reach it by DNS. */
  #hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    return host === `127.0.0.1:${this.#port}` || host === `localhost:${this.#port}`;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.#hostAllowed(req)) {
      send(res, 421, "text/plain; charset=utf-8", "the inspector answers 127.0.0.1 only\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      send(res, 405, "text/plain; charset=utf-8", `${req.method ?? "?"} is not allowed\n`);
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    let apiId: string | undefined;
    let pageId: string | undefined;
    try {
      apiId = runIdOf(path, "/api/runs/");
      pageId = runIdOf(path, "/runs/");
    } catch {
      send(
        res,
        400,
        HTML,
        messagePage("Bad request", `${path} is not a run's address`, this.#shown),
      );
      return;
    }
    try {
      if (path === "/") return this.#shell(res, "Runs");
      if (path === "/page.js")
        return send(res, 200, "text/javascript; charset=utf-8", pageScript());
      if (path === "/page.css") return send(res, 200, "text/css; charset=utf-8", PAGE_CSS);
      if (path === "/api/runs") return await this.#runList(res);
      if (apiId !== undefined)
        return await this.#runApi(res, apiId, url.searchParams.get("version"));
      if (pageId !== undefined) return await this.#runPage(res, pageId);
      if (path === "/favicon.ico") {
        res.writeHead(204, SECURITY_HEADERS).end();
        return;
      }
      send(res, 404, HTML, messagePage("Not found", `nothing at ${path}`, this.#shown));
    } catch (error) {
      if (path.startsWith("/api/")) sendJson(res, 500, { error: messageOf(error) });
      else
        send(
          res,
          500,
          HTML,
          messagePage("The journal cannot be read", messageOf(error), this.#shown),
        );
    }
  }

  #shell(res: ServerResponse, title: string): void {
    send(
      res,
      200,
      HTML,
      pageShell({
        title: `${title} · Runvil inspector`,
        journal: this.#shown,
        pollMs: this.#pollMs,
      }),
    );
  }

  async #runList(res: ServerResponse): Promise<void> {
    const runs = await this.#journal.listRuns();
    const view: RunListView = { journal: this.#shown, runs: runs.map(runListRow) };
    sendJson(res, 200, view);
  }

  #noRun(id: string): string {
    return `no run ${id} in ${this.#shown} (the run list shows the recorded runs)`;
  }

  async #find(res: ServerResponse, id: string, api: boolean) {
    try {
      const run = await this.#journal.findRun(id);
      if (run === undefined) {
        if (api) sendJson(res, 404, { error: this.#noRun(id) });
        else send(res, 404, HTML, messagePage("No such run", this.#noRun(id), this.#shown));
      }
      return run;
    } catch (error) {
      // A prefix of several runs: the journal's message lists them.
      if (api) sendJson(res, 400, { error: messageOf(error) });
      else send(res, 400, HTML, messagePage("Which run?", messageOf(error), this.#shown));
      return undefined;
    }
  }

  async #runApi(res: ServerResponse, id: string, known: string | null): Promise<void> {
    const run = await this.#find(res, id, true);
    if (run === undefined) return;
    const version = runVersion(run);
    if (known === version) {
      sendJson(res, 200, { unchanged: true, version });
      return;
    }
    const [effects, events] = await Promise.all([
      this.#journal.readEffects(run.id),
      this.#journal.readEvents(run.id),
    ]);
    sendJson(res, 200, runView(run, effects, events));
  }

  async #runPage(res: ServerResponse, id: string): Promise<void> {
    const run = await this.#find(res, id, false);
    if (run !== undefined) this.#shell(res, `Run ${run.id}`);
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") {
        reject(
          new InspectorError(
            "port_in_use",
            `127.0.0.1:${port} is in use (another program, or another runvil runs serve, listens there); pass --port N for another port, or --port 0 for any free one`,
            { cause: error },
          ),
        );
      } else {
        reject(
          new InspectorError(
            "listen_failed",
            `cannot listen on 127.0.0.1:${port}: ${error.message}`,
            {
              cause: error,
            },
          ),
        );
      }
    };
    const onListening = () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

/**
 * Serves the inspector page over `journal` on 127.0.0.1: the run list at `/`, a run's page at
 * `/runs/ID`, and the JSON they read at `/api/runs` and `/api/runs/ID`. Rejects with an
 * InspectorError for a port in use or a bad option.
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InspectorError(
      "bad_option",
      `the port must be a whole number from 0 to 65535; got ${port}`,
    );
  }
  const pollMs = options.pollMs ?? 1000;
  if (!Number.isInteger(pollMs) || pollMs < 50) {
    throw new InspectorError(
      "bad_option",
      `pollMs must be a whole number of at least 50; got ${pollMs}`,
    );
  }
  pageScript();
  const handler = new InspectorServer(
    options.journal,
    options.shown ?? options.journal.location,
    pollMs,
  );
  const server = createServer((req, res) => {
    handler.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: messageOf(error) });
      else res.destroy();
    });
  });
  const bound = await listen(server, port);
  handler.port = bound;
  const url = `http://127.0.0.1:${bound}`;
  return {
    url,
    port: bound,
    runUrl: (id: string) => `${url}/runs/${encodeURIComponent(id)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
