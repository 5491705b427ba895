import type { ServerResponse } from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { ToolFailure } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "../test-support/local-server";
import { createHttpBackend } from "./http-backend";

const PAGE = `<!doctype html>
<html><head><title>Lua</title><style>body { color: red }</style>
<script>document.write("tracking")</script></head>
<body><h1>The Lua language</h1>
<p>Lua is <b>powerful</b>. Read <a href="/manual/">the manual</a>.</p>
<script>alert("popup")</script>
<ul><li>fast</li><li>small</li></ul></body></html>`;

const JSON_BODY = '{"name": "lua",\n "versions": [5.4, 5.5], "note": "caf\u00e9"}';

function send(response: ServerResponse, type: string, body: string | Buffer): void {
  response.writeHead(200, { "content-type": type });
  response.end(body);
}

function redirect(response: ServerResponse, status: number, location: string): void {
  response.writeHead(status, { location });
  response.end();
}

/** Streams `total` bytes of `x` as text/plain, in 64 KiB chunks, without a Content-Length. */
function stream(response: ServerResponse, total: number): void {
  response.writeHead(200, { "content-type": "text/plain" });
  const chunk = Buffer.alloc(65_536, "x");
  let left = total;
  const write = (): void => {
    while (left > 0) {
      const size = Math.min(left, chunk.length);
      left -= size;
      if (!response.write(chunk.subarray(0, size))) {
        response.once("drain", write);
        return;
      }
    }
    response.end();
  };
  write();
}

let server: LocalServer;
/** Called when a request reaches `/hang`: lets a test abort at that moment. */
let onHang: () => void = () => {};

beforeAll(async () => {
  server = await startServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/page") return send(response, "text/html; charset=utf-8", PAGE);
    if (path === "/latin1") {
      return send(
        response,
        "text/html",
        Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9</p>', "latin1"),
      );
    }
    if (path === "/data.json") return send(response, "application/json", JSON_BODY);
    if (path === "/feed") return send(response, "application/feed+json", '{"items":[]}');
    if (path === "/notes.txt")
      return send(response, "text/plain; charset=utf-8", "  line one\n\tline two  \n");
    if (path === "/untyped") {
      response.writeHead(200);
      return response.end("plain words");
    }
    if (path === "/untyped-html") {
      response.writeHead(200);
      return response.end("<!DOCTYPE html><p>Hello <i>there</i></p>");
    }
    if (path === "/untyped-binary") {
      response.writeHead(200);
      return response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    }
    if (path === "/image.png") return send(response, "image/png", Buffer.from([0x89, 0x50]));
    if (path === "/doc.pdf") return send(response, "application/pdf", "%PDF-1.7");
    if (path === "/blob") return send(response, "application/octet-stream", "xx");
    if (path === "/start") return redirect(response, 301, "/middle");
    if (path === "/middle") return redirect(response, 302, `${server.base}/last#top`);
    if (path === "/last") return redirect(response, 307, "/notes.txt");
    if (path === "/loop-a") return redirect(response, 302, "/loop-b");
    if (path === "/loop-b") return redirect(response, 302, "/loop-a");
    if (path.startsWith("/chain/")) {
      const n = Number(path.slice("/chain/".length));
      return n === 0
        ? send(response, "text/plain", "end of chain")
        : redirect(response, 302, `/chain/${n - 1}`);
    }
    if (path === "/no-location") {
      response.writeHead(302);
      return response.end();
    }
    if (path === "/to-ftp") return redirect(response, 302, "ftp://files.example/readme");
    if (path === "/missing") {
      response.writeHead(404, "Gone Fishing", { "content-type": "text/html" });
      return response.end("<p>not here</p>");
    }
    if (path === "/broken") {
      response.writeHead(503, { "content-type": "text/plain" });
      return response.end("down");
    }
    if (path === "/hang") {
      onHang();
      return; // never answers
    }
    if (path === "/big-declared") {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "2000" });
      return response.end("x".repeat(2000));
    }
    if (path === "/stream/small") return stream(response, 1001);
    if (path === "/stream/exact") return stream(response, 1000);
    if (path === "/stream/8mib") return stream(response, 8_388_608);
    if (path === "/stream/8mib+1") return stream(response, 8_388_609);
    if (path === "/agent") return send(response, "text/plain", request.headers["user-agent"] ?? "");
    if (path.startsWith("/coded/")) {
      const coding = decodeURIComponent(path.slice("/coded/".length));
      const body = Buffer.from(`coded with ${coding}`);
      const coded =
        coding === "gzip"
          ? gzipSync(body)
          : coding === "br"
            ? brotliCompressSync(body)
            : coding === "deflate"
              ? deflateSync(body)
              : coding === "gzip, br"
                ? brotliCompressSync(gzipSync(body))
                : body;
      response.writeHead(200, {
        "content-type": "text/plain",
        "content-encoding": coding === "broken" ? "gzip" : coding,
      });
      return response.end(coded);
    }
    if (path === "/reset") {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "100000" });
      response.write("x".repeat(1000));
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    if (path === "/encodings") {
      return send(response, "text/plain", request.headers["accept-encoding"] ?? "");
    }
    response.writeHead(500);
    response.end();
  });
});

afterAll(async () => {
  await server.close();
});

const signal = (): AbortSignal => new AbortController().signal;

/** The test server is on 127.0.0.1: these tests opt in to local addresses. */
const LOCAL = { allowPrivateNetwork: true } as const;

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(ToolFailure.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected a failure");
}

describe("createHttpBackend: bodies", () => {
  const backend = createHttpBackend(LOCAL);

  it("turns an HTML page into readable text without scripts or styles", async () => {
    const text = await backend.fetchPage(`${server.base}/page`, signal());
    expect(text).toBe(
      `The Lua language\n\nLua is powerful. Read the manual [${server.base}/manual/].\n\n * fast\n * small`,
    );
    expect(text).not.toContain("tracking");
    expect(text).not.toContain("popup");
    expect(text).not.toContain("color");
  });

  it("decodes an HTML page in the charset its meta tag declares", async () => {
    expect(await backend.fetchPage(`${server.base}/latin1`, signal())).toBe("caf\u00e9");
  });

  it("passes a JSON body through unchanged", async () => {
    expect(await backend.fetchPage(`${server.base}/data.json`, signal())).toBe(JSON_BODY);
    expect(await backend.fetchPage(`${server.base}/feed`, signal())).toBe('{"items":[]}');
  });

  it("passes plain text through as is, whitespace included", async () => {
    expect(await backend.fetchPage(`${server.base}/notes.txt`, signal())).toBe(
      "  line one\n\tline two  \n",
    );
  });

  it("sniffs a body without a content type", async () => {
    expect(await backend.fetchPage(`${server.base}/untyped`, signal())).toBe("plain words");
    expect(await backend.fetchPage(`${server.base}/untyped-html`, signal())).toBe("Hello there");
    expect(await failure(backend.fetchPage(`${server.base}/untyped-binary`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/untyped-binary has no content type and is not text`,
    );
  });

  it("refuses images, PDFs and octet streams, naming the content type", async () => {
    for (const [path, type] of [
      ["/image.png", "image/png"],
      ["/doc.pdf", "application/pdf"],
      ["/blob", "application/octet-stream"],
    ] as const) {
      expect(await failure(backend.fetchPage(`${server.base}${path}`, signal()))).toBe(
        `web_fetch: the page at ${server.base}${path} has content type ${type}, which is not text`,
      );
    }
  });

  it("undoes gzip, deflate and br content codings, and asks for them", async () => {
    for (const coding of ["gzip", "deflate", "br"]) {
      expect(await backend.fetchPage(`${server.base}/coded/${coding}`, signal())).toBe(
        `coded with ${coding}`,
      );
    }
    expect(await backend.fetchPage(`${server.base}/coded/gzip,%20br`, signal())).toBe(
      "coded with gzip, br",
    );
    expect(await backend.fetchPage(`${server.base}/coded/compress`, signal())).toBe(
      "coded with compress",
    );
    expect(await backend.fetchPage(`${server.base}/encodings`, signal())).toBe("gzip, deflate, br");
    expect(await failure(backend.fetchPage(`${server.base}/coded/broken`, signal()))).toBe(
      `web_fetch: could not reach ${server.base}/coded/broken`,
    );
  });

  it("sends the default User-Agent, or the configured one", async () => {
    expect(await backend.fetchPage(`${server.base}/agent`, signal())).toBe(
      "Mozilla/5.0 (compatible; runvil-web/0; +web/fetch)",
    );
    const custom = createHttpBackend({ ...LOCAL, userAgent: "my-agent/1" });
    expect(await custom.fetchPage(`${server.base}/agent`, signal())).toBe("my-agent/1");
  });
});

describe("createHttpBackend: HTTP errors and URLs", () => {
  const backend = createHttpBackend(LOCAL);

  it("fails on 4xx and 5xx with the status and its standard reason phrase", async () => {
    expect(await failure(backend.fetchPage(`${server.base}/missing`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/missing answered HTTP 404 Not Found`,
    );
    expect(await failure(backend.fetchPage(`${server.base}/broken`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/broken answered HTTP 503 Service Unavailable`,
    );
  });

  it("refuses schemes other than http and https", async () => {
    expect(await failure(backend.fetchPage("ftp://files.example/readme", signal()))).toBe(
      "web_fetch: cannot fetch ftp://files.example/readme: only http and https URLs can be fetched",
    );
    expect(await failure(backend.fetchPage("file:///etc/passwd", signal()))).toBe(
      "web_fetch: cannot fetch file:///etc/passwd: only http and https URLs can be fetched",
    );
  });

  it("refuses a url that is not a URL", async () => {
    expect(await failure(backend.fetchPage("www.lua.org", signal()))).toBe(
      "web_fetch: not a valid URL: www.lua.org",
    );
  });

  it("fails a body that breaks off, as a network error", async () => {
    expect(await failure(backend.fetchPage(`${server.base}/reset`, signal()))).toBe(
      `web_fetch: could not reach ${server.base}/reset: the connection was closed unexpectedly`,
    );
  });

  it("refuses the ports fetch never uses, before connecting", async () => {
    for (const url of ["http://mail.example:25/", "http://irc.example:6667/x"]) {
      expect(await failure(backend.fetchPage(url, signal()))).toBe(
        `web_fetch: could not reach ${url}: fetching from that port is not allowed`,
      );
    }
  });

  it("names a refused connection", async () => {
    const closed = await startServer(() => {});
    const url = `${closed.base}/`;
    await closed.close();
    expect(await failure(backend.fetchPage(url, signal()))).toBe(
      `web_fetch: could not reach ${url}: the connection was refused`,
    );
  });
});

describe("createHttpBackend: redirects", () => {
  const backend = createHttpBackend(LOCAL);

  it("follows a redirect chain (relative and absolute, 301/302/307) to the page", async () => {
    expect(await backend.fetchPage(`${server.base}/start`, signal())).toBe(
      "  line one\n\tline two  \n",
    );
  });

  it("follows up to 5 redirects and fails on the 6th", async () => {
    expect(await backend.fetchPage(`${server.base}/chain/5`, signal())).toBe("end of chain");
    expect(await failure(backend.fetchPage(`${server.base}/chain/6`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/chain/6 redirected more than 5 times`,
    );
  });

  it("honours maxRedirects, 0 included", async () => {
    const none = createHttpBackend({ ...LOCAL, maxRedirects: 0 });
    expect(await failure(none.fetchPage(`${server.base}/chain/1`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/chain/1 redirected more than 0 times`,
    );
    const one = createHttpBackend({ ...LOCAL, maxRedirects: 1 });
    expect(await one.fetchPage(`${server.base}/chain/1`, signal())).toBe("end of chain");
    expect(await failure(one.fetchPage(`${server.base}/chain/2`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/chain/2 redirected more than 1 time`,
    );
  });

  it("fails on a redirect loop at once", async () => {
    const before = server.requests.length;
    expect(await failure(backend.fetchPage(`${server.base}/loop-a`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/loop-a redirects in a loop`,
    );
    expect(server.requests.length - before).toBe(2);
  });

  it("checks every hop's scheme", async () => {
    expect(await failure(backend.fetchPage(`${server.base}/to-ftp`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/to-ftp redirected to a URL that is not an http or https URL`,
    );
  });

  it("fails on a redirect without a Location header", async () => {
    expect(await failure(backend.fetchPage(`${server.base}/no-location`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/no-location answered HTTP 302 Found without a Location header`,
    );
  });
});

describe("createHttpBackend: limits and cancellation", () => {
  it("times out a server that never answers", async () => {
    const backend = createHttpBackend({ ...LOCAL, timeoutMs: 150 });
    expect(await failure(backend.fetchPage(`${server.base}/hang`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/hang did not load within 150 ms`,
    );
  });

  it("stops when the call's signal aborts", async () => {
    const controller = new AbortController();
    onHang = () => controller.abort();
    try {
      const backend = createHttpBackend(LOCAL);
      expect(await failure(backend.fetchPage(`${server.base}/hang`, controller.signal))).toBe(
        `web_fetch: the fetch of ${server.base}/hang was cancelled`,
      );
    } finally {
      onHang = () => {};
    }
  });

  it("fails at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const before = server.requests.length;
    expect(
      await failure(createHttpBackend(LOCAL).fetchPage(`${server.base}/page`, controller.signal)),
    ).toBe(`web_fetch: the fetch of ${server.base}/page was cancelled`);
    expect(server.requests.length).toBe(before);
  });

  it("stops reading a streamed body past maxBytes", async () => {
    const backend = createHttpBackend({ ...LOCAL, maxBytes: 1000 });
    expect(await backend.fetchPage(`${server.base}/stream/exact`, signal())).toBe("x".repeat(1000));
    expect(await failure(backend.fetchPage(`${server.base}/stream/small`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/stream/small is larger than 1000 bytes`,
    );
  });

  it("refuses a declared Content-Length past maxBytes without reading", async () => {
    const backend = createHttpBackend({ ...LOCAL, maxBytes: 1000 });
    expect(await failure(backend.fetchPage(`${server.base}/big-declared`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/big-declared is larger than 1000 bytes`,
    );
  });

  it("caps a body at 8,388,608 bytes by default", async () => {
    const backend = createHttpBackend(LOCAL);
    expect((await backend.fetchPage(`${server.base}/stream/8mib`, signal())).length).toBe(
      8_388_608,
    );
    expect(await failure(backend.fetchPage(`${server.base}/stream/8mib+1`, signal()))).toBe(
      `web_fetch: the page at ${server.base}/stream/8mib+1 is larger than 8388608 bytes`,
    );
  });
});
