import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";

const prompt = `---
name: traced
description: Logs, calls a section and returns.
runvil: 0
---

# Traced

## Main

\`\`\`lua
log('hello')
return 'ok ' .. call('### Helper')
\`\`\`

### Helper

\`\`\`lua
return 'helped'
\`\`\`
`;

/** A span of an OTLP/JSON export request, as much as the test reads. */
interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
}

/** A local OTLP/HTTP receiver on 127.0.0.1: keeps each POST's content type and JSON body. */
interface Receiver {
  readonly url: string;
  readonly requests: { path: string; contentType: string; body: unknown }[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function startReceiver(status = 200): Promise<Receiver> {
  const requests: Receiver["requests"] = [];
  const read = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((text) => {
      requests.push({
        path: request.url ?? "",
        contentType: String(request.headers["content-type"]),
        body: JSON.parse(text) as unknown,
      });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(status === 200 ? "{}" : '{"code":3,"message":"refused by the test"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  receivers.push(receiver);
  return receiver;
}

function spansOf(body: unknown): OtlpSpan[] {
  const { resourceSpans } = body as {
    resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
  };
  return resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}

function expectTraceOf(receiver: Receiver): void {
  expect(receiver.requests.map((r) => [r.path, r.contentType])).toEqual([
    ["/v1/traces", "application/json"],
  ]);
  const spans = spansOf(receiver.requests[0]?.body);
  const byName = new Map(spans.map((s) => [s.name, s]));
  expect([...byName.keys()].sort()).toEqual([
    "runvil.chain ### Helper",
    "runvil.run",
    "runvil.section Helper",
    "runvil.section Main",
    "runvil.section Traced",
  ]);
  const parent = (name: string) => byName.get(name)?.parentSpanId;
  const id = (name: string) => byName.get(name)?.spanId;
  expect(parent("runvil.section Main")).toBe(id("runvil.run"));
  expect(parent("runvil.chain ### Helper")).toBe(id("runvil.section Main"));
  expect(parent("runvil.section Helper")).toBe(id("runvil.chain ### Helper"));
}

describe("runvil run --otel", () => {
  it("sends the run's spans to a local OTLP/HTTP receiver", async () => {
    const receiver = await startReceiver();
    const io = memoryIo({ "traced.md": prompt });
    expect(await runCli(["run", "traced.md", "--otel", receiver.url], io)).toBe(0);
    expect(io.out).toBe("ok helped\n");
    expect(io.err).toBe("");
    expectTraceOf(receiver);
  });

  it("sends them from the built binary's worker thread too (the SDK stays out of its bundle)", async () => {
    const receiver = await startReceiver();
    const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
    const file = join(mkdtempSync(join(tmpdir(), "runvil-otel-")), "traced.md");
    writeFileSync(file, prompt);
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      bin,
      "run",
      file,
      "--otel",
      receiver.url,
    ]);
    expect([stdout, stderr]).toEqual(["ok helped\n", ""]);
    expectTraceOf(receiver);
  });

  it("says so on stderr when the receiver refuses the trace, and the run's exit code stands", async () => {
    const receiver = await startReceiver(400);
    const io = memoryIo({ "traced.md": prompt });
    expect(await runCli(["run", "traced.md", "--otel", receiver.url], io)).toBe(0);
    expect(io.out).toBe("ok helped\n");
    expect(io.err).toMatch(
      new RegExp(`^--otel ${receiver.url}: cannot export the trace \\(.+\\)\\n$`),
    );
  });

  it("refuses an endpoint that is not an http(s) URL (exit 2)", async () => {
    const io = memoryIo({ "traced.md": prompt });
    expect(await runCli(["run", "traced.md", "--otel", "localhost:4318"], io)).toBe(2);
    expect(io.err).toBe(
      "--otel must be the http(s) URL of an OTLP traces endpoint (such as http://localhost:4318/v1/traces), got localhost:4318\n",
    );
  });
});

describe("otel.endpoint in runvil.config.json", () => {
  function configWith(endpoint: string): string {
    const dir = mkdtempSync(join(tmpdir(), "runvil-otel-config-"));
    const file = join(dir, "runvil.config.json");
    writeFileSync(file, JSON.stringify({ plugins: [], otel: { endpoint } }));
    return file;
  }

  it("sends the run's spans to the configured endpoint without --otel", async () => {
    const receiver = await startReceiver();
    const io = memoryIo({ "traced.md": prompt });
    const config = configWith(receiver.url);
    expect(await runCli(["run", "traced.md", "--config", config, "--no-record"], io)).toBe(0);
    expect([io.out, io.err]).toEqual(["ok helped\n", ""]);
    expectTraceOf(receiver);
  });

  it("gives way to --otel, which alone receives the trace", async () => {
    const flagged = await startReceiver();
    const configured = await startReceiver();
    const io = memoryIo({ "traced.md": prompt });
    const config = configWith(configured.url);
    const argv = ["run", "traced.md", "--config", config, "--no-record", "--otel", flagged.url];
    expect(await runCli(argv, io)).toBe(0);
    expectTraceOf(flagged);
    expect(configured.requests).toEqual([]);
  });

  it("names the key and the file when the configured receiver refuses the trace", async () => {
    const receiver = await startReceiver(400);
    const io = memoryIo({ "traced.md": prompt });
    const config = configWith(receiver.url);
    expect(await runCli(["run", "traced.md", "--config", config, "--no-record"], io)).toBe(0);
    expect(io.out).toBe("ok helped\n");
    expect(
      io.err.startsWith(`otel.endpoint ${receiver.url} (${config}): cannot export the trace (`),
    ).toBe(true);
  });
});
