import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { ScriptedOpenAiServer, triageAnswers } from "../test-openai-server";

const example = fileURLToPath(new URL("../../../../examples/issue-triage/", import.meta.url));
const promptFile = join(example, "issue-triage.md");
const prompt = readFileSync(promptFile, "utf8");
const ISSUE = "The app crashes on start since 2.1, and the install page still shows the old steps.";
const RESULT = "bug, docs: It crashes on start, and the install docs are out of date.";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The example's runvil.config.json with its base URL pointed at `baseURL`, in a temporary folder. */
function configFor(baseURL: string): string {
  const dir = mkdtempSync(join(tmpdir(), "runvil-provider-run-"));
  dirs.push(dir);
  const config = JSON.parse(readFileSync(join(example, "runvil.config.json"), "utf8"));
  config.providers.local.options.baseURL = baseURL;
  config.providers.local.retry = { initialDelayMs: 10, maxDelayMs: 20 };
  const file = join(dir, "runvil.config.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** `runvil run` of the example through the built command (dist/bin.js) with `args` after it. */
async function runBuilt(
  args: readonly string[],
): Promise<{ code: number | null; out: string; err: string }> {
  const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
  const child = spawn(process.execPath, [bin, "run", promptFile, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += String(d);
  });
  child.stderr.on("data", (d) => {
    err += String(d);
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, out, err };
}

let server: ScriptedOpenAiServer;
let baseURL: string;
beforeEach(async () => {
  server = new ScriptedOpenAiServer(triageAnswers());
  baseURL = await server.start();
});
afterEach(() => server.close());

describe("runvil run against a local OpenAI-compatible server", () => {
  it("runs the example end to end with streaming progress, a retry and tool calls", async () => {
    const config = configFor(baseURL);
    const dir = dirs.at(-1) as string;
    const events = join(dir, "events.jsonl");
    const err: string[] = [];
    const base = memoryIo({ "issue-triage.md": prompt });
    const io = { ...base, stderrIsTTY: true, stderr: (text: string) => err.push(text) };
    const code = await runCli(
      ["run", "issue-triage.md", "--config", config, "--args", ISSUE, "--events", events],
      io,
    );
    // Only progress lines, and the run's usage line when the Host prints one at the end.
    expect(err.filter((t) => !t.startsWith("\r") && !t.startsWith("model usage: "))).toEqual([]);
    expect(base.out).toBe(`${RESULT}\n`);
    expect(code).toBe(0);
    expect(err).toContain("\r\x1b[2Krunning: Triage · 0 effects · triager round 1");
    expect(
      err.some((t) => /triager round 1 · retry 1 in 0\.0 s \(rate limited \(429\)\)$/.test(t)),
    ).toBe(true);
    expect(err.some((t) => /triager round 2 · \d+ tokens$/.test(t))).toBe(true);
    // The model's two add_label calls are local tools (no effect), counted as runs list does.
    expect(err).toContain("\r\x1b[2Krunning: Triage · 0 effects · 1 tool call");
    expect(err.some((t) => /Triage · 0 effects · 2 tool calls · triager round 2/.test(t))).toBe(
      true,
    );
    const types = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; reason?: string });
    expect(types.filter((e) => e.type.startsWith("model_turn")).map((e) => e.type)).toEqual([
      "model_turn_started",
      "model_turn_retrying",
      "model_turn_completed",
      "model_turn_started",
      "model_turn_completed",
    ]);
    expect(server.bodies).toHaveLength(3);
    expect(server.bodies[2]).toMatchObject({
      model: "qwen3",
      stream: true,
      max_tokens: 512,
      messages: [
        { role: "system" },
        { role: "user", content: `Issue:\n\n${ISSUE}` },
        { role: "assistant", tool_calls: [{ id: "c1" }, { id: "c2" }] },
        { role: "tool", tool_call_id: "c1", content: "added bug" },
        { role: "tool", tool_call_id: "c2", content: "added docs" },
      ],
    });
  });

  it("runs it through the built runvil command, in its worker thread", async () => {
    const config = configFor(baseURL);
    const { code, out, err } = await runBuilt(["--config", config, "--args", ISSUE]);
    expect(err).toBe("");
    expect(out).toBe(`${RESULT}\n`);
    expect(code).toBe(0);
  });

  it("reports the run's tokens and cost with --json, in all and by model (the built command)", async () => {
    const config = configFor(baseURL);
    const priced = JSON.parse(readFileSync(config, "utf8"));
    priced.providers.local.models.qwen3.prices = { inputPerMillion: 0.5, outputPerMillion: 1.5 };
    writeFileSync(config, JSON.stringify(priced));
    const { code, out, err } = await runBuilt([
      "--config",
      config,
      "--args",
      ISSUE,
      "--json",
      "--no-record",
    ]);
    expect([code, err]).toEqual([0, ""]);
    // Two rounds (the 429 before the first is a retry, not a round): 180 + 230 input tokens at
    // $0.5 per million, 24 + 14 output at $1.5: $0.000205 + $0.000057.
    const usage = {
      rounds: 2,
      inputTokens: 410,
      outputTokens: 38,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: "0.000262",
      unpricedRounds: 0,
    };
    expect(JSON.parse(out)).toEqual({
      outcome: "succeeded",
      result: RESULT,
      var: { issue: ISSUE, labels: ["bug", "docs"] },
      usage: { total: usage, byModel: { "local:qwen3": usage } },
    });
  });

  it("lists the catalog and the binding of the example's role", async () => {
    const config = configFor(baseURL);
    const io = memoryIo({ "issue-triage.md": prompt });
    expect(await runCli(["models", "issue-triage.md", "--config", config], io)).toBe(0);
    expect(io.out).toBe(
      `catalog (${config}): 5 models\n` +
        "  local:qwen3 (provider local, 40960-token context, 8192-token replies, tools, $0 in / $0 out per million tokens)\n" +
        "  openai:gpt-5-mini (provider openai, 400000-token context, 128000-token replies, tools, $0.25 in / $2 out / $0.025 cached per million tokens)\n" +
        "  openai:gpt-5 (provider openai, 400000-token context, 128000-token replies, tools, $1.25 in / $10 out / $0.125 cached per million tokens)\n" +
        "  openai:gpt-4.1 (provider openai, 1047576-token context, 32768-token replies, tools, $2 in / $8 out / $0.5 cached per million tokens)\n" +
        "  openai:gpt-4.1-mini (provider openai, 1047576-token context, 32768-token replies, tools, $0.4 in / $1.6 out / $0.1 cached per million tokens)\n" +
        "default model: none\n" +
        "issue-triage.md:\n" +
        "  model triager: local:qwen3 (provider local, from its model:)\n",
    );
  });

  it("overrides a binding with --model, and refuses an id the catalog lacks with the line to add", async () => {
    const config = configFor(baseURL);
    const io = memoryIo({ "issue-triage.md": prompt });
    expect(
      await runCli(
        [
          "run",
          "issue-triage.md",
          "--config",
          config,
          "--args",
          "x",
          "--model",
          "triager=local:qwen9",
        ],
        io,
      ),
    ).toBe(1);
    expect(io.err).toBe(
      "issue-triage.md: RequirementsUnmet error: the environment cannot satisfy this prompt:\n" +
        "- model role triager cannot be bound: `local:qwen9` is not in this host's model catalog\n" +
        '  fix: add "qwen9": { "contextWindow": 131072, "maxOutputTokens": 8192 } under providers.local.models in runvil.config.json (with the model\'s own limits)\n',
    );
    expect(server.bodies).toHaveLength(0);
    const bad = memoryIo({ "issue-triage.md": prompt });
    expect(await runCli(["run", "issue-triage.md", "--model", "triager"], bad)).toBe(2);
    expect(bad.err).toBe(
      '--model takes role=model, such as writer=openai:gpt-5-mini; got "triager"\n',
    );
  });
});
