import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { losslessJson } from "../lossless-json";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { echoPluginDir } from "../test-plugin";
import { NO_USAGE_JSON } from "../test-usage";

const wordCount = readFileSync(
  fileURLToPath(new URL("../../../../examples/word-count/word-count.md", import.meta.url)),
  "utf8",
);

const failing = `---
name: failing
description: Fails at run time.
runvil: 0
---

# Failing

## Main

\`\`\`lua
var.before = 1
error('boom')
\`\`\`
`;

const counter = `---
name: counter
description: Counts its runs in the store.
runvil: 0
---

# Counter

## Main

\`\`\`lua
local n = 0
if store.exists('count.txt') then n = tonumber(store.read('count.txt')) end
store.write('count.txt', tostring(n + 1))
return 'run ' .. (n + 1)
\`\`\`
`;

const brokenLua = `---
name: broken
description: Holds a block that does not compile.
runvil: 0
---

# Broken

## Check

\`\`\`lua
local secret =
return secret
\`\`\`
`;

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), "runvil-cli-"));
  made.push(dir);
  return dir;
}

describe("runvil run", () => {
  it("prints the word-count result for the sample text", async () => {
    const io = memoryIo({ "wc.md": wordCount });
    expect(await runCli(["run", "wc.md"], io)).toBe(0);
    expect(io.out).toBe("the=3, and=2, bird=1\n");
    expect(io.err).toBe("");
  });

  it("passes --args as the argument string", async () => {
    const io = memoryIo({ "wc.md": wordCount });
    expect(await runCli(["run", "wc.md", "--args", "echo echo"], io)).toBe(0);
    expect(io.out).toBe("echo=2\n");
  });

  it("prints a runtime error with its kind and traceback and exits 1", async () => {
    const io = memoryIo({ "failing.md": failing });
    expect(await runCli(["run", "failing.md"], io)).toBe(1);
    expect(io.out).toBe("");
    const lines = io.err.split("\n");
    expect(lines[0]).toBe(
      "Lua error: section `Main` prologue:13: runtime error: section `Main` prologue:13: boom",
    );
    expect(lines[1]).toBe("stack traceback:");
    expect(io.err.endsWith("\n")).toBe(true);
  });

  it("prints a parse error like runvil check and exits 1", async () => {
    const run = memoryIo({ "broken.md": brokenLua });
    expect(await runCli(["run", "broken.md"], run)).toBe(1);
    const check = memoryIo({ "broken.md": brokenLua });
    expect(await runCli(["check", "broken.md"], check)).toBe(1);
    expect(run.err).toBe(check.err);
    expect(run.err).toMatch(/^broken\.md: Lua error: lua compilation error at section `Check`/);
    expect(run.out).toBe("");
  });

  it("says so for a missing file", async () => {
    const io = memoryIo({});
    expect(await runCli(["run", "nope.md"], io)).toBe(1);
    expect(io.err).toBe("nope.md: no such file\n");
  });

  it("keeps the store between runs with --store", async () => {
    const dir = join(tempDirectory(), "store");
    const first = memoryIo({ "counter.md": counter });
    expect(await runCli(["run", "counter.md", "--store", dir], first)).toBe(0);
    expect(first.out).toBe("run 1\n");
    const second = memoryIo({ "counter.md": counter });
    expect(await runCli(["run", "counter.md", "--store", dir], second)).toBe(0);
    expect(second.out).toBe("run 2\n");
    expect(readFileSync(join(dir, "count.txt"), "utf8")).toBe("2");
    const memory = memoryIo({ "counter.md": counter });
    expect(await runCli(["run", "counter.md"], memory)).toBe(0);
    expect(memory.out).toBe("run 1\n");
  });

  it("writes every event as JSON Lines with --events", async () => {
    const file = join(tempDirectory(), "events.jsonl");
    const io = memoryIo({ "counter.md": counter });
    expect(await runCli(["run", "counter.md", "--events", file], io)).toBe(0);
    const events = readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { seq: number; type: string; op?: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe("run_started");
    expect(events.at(-1)).toMatchObject({ type: "run_finished", outcome: "succeeded" });
    expect(events.filter((e) => e.type === "store_op").map((e) => e.op)).toEqual([
      "exists",
      "write",
    ]);
  });

  it("prints one JSON object with --json", async () => {
    const ok = memoryIo({ "wc.md": wordCount });
    expect(await runCli(["run", "wc.md", "--json", "--args", "echo echo"], ok)).toBe(0);
    expect(JSON.parse(ok.out)).toEqual({
      outcome: "succeeded",
      result: "echo=2",
      var: { text: "echo echo", counts: { echo: 2 } },
      usage: NO_USAGE_JSON,
    });
    const failed = memoryIo({ "failing.md": failing });
    expect(await runCli(["run", "failing.md", "--json"], failed)).toBe(1);
    expect(failed.err).toBe("");
    const report = JSON.parse(failed.out) as {
      outcome: string;
      error: { kind: string; causes: string[]; entry: string };
      var: unknown;
      usage: unknown;
    };
    expect(report.outcome).toBe("failed");
    expect(report.error.kind).toBe("Lua");
    expect(report.error.causes).toEqual([]);
    expect(report.error.entry).toBe("0.1");
    expect(report.var).toEqual({});
    expect(report.usage).toEqual(NO_USAGE_JSON);
  });

  it("refuses a bad --seed with exit 2 and accepts 2^64 - 1", async () => {
    for (const seed of ["abc", "-1", "1.5", "18446744073709551616"]) {
      const io = memoryIo({ "wc.md": wordCount });
      expect(await runCli(["run", "wc.md", "--seed", seed], io)).toBe(2);
      expect(io.err).toBe(
        `error: --seed must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got ${JSON.stringify(seed)}\n`,
      );
      expect(io.out).toBe("");
    }
    const io = memoryIo({ "wc.md": wordCount });
    expect(await runCli(["run", "wc.md", "--seed", "18446744073709551615"], io)).toBe(0);
    expect(io.out).toBe("the=3, and=2, bird=1\n");
  });

  it("refuses a bad --stop-deadline with exit 2, naming it", async () => {
    for (const deadline of ["soon", "-1", "1.5", "1e3"]) {
      const io = memoryIo({ "wc.md": wordCount });
      expect(await runCli(["run", "wc.md", "--stop-deadline", deadline], io)).toBe(2);
      expect(io.err).toBe(
        `--stop-deadline must be a whole number of milliseconds, got ${deadline}\n`,
      );
    }
    const io = memoryIo({ "wc.md": wordCount });
    expect(await runCli(["run", "wc.md", "--stop-deadline", "0"], io)).toBe(0);
  });

  it("cancels cleanly on the first Ctrl-C and exits 130", async () => {
    const spinning = counter.replace(
      "local n = 0",
      "while true do store.write('spin.txt', 'x') end\nlocal n = 0",
    );
    let interrupt: (() => void) | undefined;
    let listening = false;
    const io = {
      ...memoryIo({ "spin.md": spinning }),
      onInterrupt(listener: () => void) {
        interrupt = listener;
        listening = true;
        setTimeout(() => interrupt?.(), 50);
        return () => {
          listening = false;
        };
      },
    };
    const err: string[] = [];
    io.stderr = (text: string) => err.push(text);
    expect(await runCli(["run", "spin.md"], io)).toBe(130);
    expect(err.join("")).toBe("run cancelled\n");
    expect(listening).toBe(false);
  });

  it("stops on SIGTERM and exits 143, in text and in JSON", async () => {
    const spinning = counter.replace(
      "local n = 0",
      "var.spun = true\nwhile true do store.write('spin.txt', 'x') end\nlocal n = 0",
    );
    for (const json of [false, true]) {
      let listening = false;
      const io: ReturnType<typeof memoryIo> = memoryIo({ "spin.md": spinning });
      io.onTerminate = (listener) => {
        listening = true;
        setTimeout(listener, 50);
        return () => {
          listening = false;
        };
      };
      const code = await runCli(json ? ["run", "spin.md", "--json"] : ["run", "spin.md"], io);
      expect(code).toBe(143);
      if (json) {
        expect(JSON.parse(io.out)).toEqual({
          outcome: "cancelled",
          stopped: true,
          var: {},
          usage: NO_USAGE_JSON,
        });
        expect(io.err).toBe("");
      } else {
        expect([io.out, io.err]).toEqual(["", "run stopped\n"]);
      }
      expect(listening).toBe(false);
    }
  });

  it("draws and clears a progress line only on a terminal", async () => {
    const tty = { ...memoryIo({ "c.md": counter }), stderrIsTTY: true };
    const err: string[] = [];
    tty.stderr = (text: string) => err.push(text);
    expect(await runCli(["run", "c.md"], tty)).toBe(0);
    expect(err).toContain("\r\x1b[2Krunning: Main · 1 effect");
    expect(err.at(-1)).toBe("\r\x1b[2K");
  });
});

const echoing = `---
name: echoing
description: Calls the echo Pack's tool and prelude.
runvil: 0
uses: [test/echo]
---

# Echoing

## Main

\`\`\`lua
local said = tools.call('echo/say', { text = 'hi' })
return said .. ' ' .. shout('there')
\`\`\`
`;

/** A prompt whose one section asks the role's model once. */
const modelling = (model: string): string => `---
name: modelling
description: Asks a model once.
runvil: 0
models:
  writer: { model: ${model} }
---

# Modelling

## Main

\`\`\`lua
models.use('writer')
return models.infer('hi')
\`\`\`
`;

const asking = `---
name: asking
description: Asks the operator twice.
runvil: 0
uses: [user-input]
---

# Asking

## Main

\`\`\`lua
return input.ask() .. '+' .. input.ask()
\`\`\`
`;

describe("runvil run on a Host", () => {
  it("calls a configured Pack's tools and prelude (--config)", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({ "e.md": echoing });
    expect(await runCli(["run", "e.md", "--config", config], io)).toBe(0);
    expect(io.out).toBe("hi THERE\n");
    expect(io.err).toBe("");
  });

  it("finds the runvil.config.json beside the prompt", async () => {
    const { dir } = echoPluginDir();
    made.push(dir);
    const file = join(dir, "e.md");
    const io = memoryIo({ [file]: echoing });
    expect(await runCli(["run", file], io)).toBe(0);
    expect(io.out).toBe("hi THERE\n");
  });

  it("counts tool calls on the progress line", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const err: string[] = [];
    const io = { ...memoryIo({ "e.md": echoing }), stderrIsTTY: true };
    io.stderr = (text: string) => err.push(text);
    expect(await runCli(["run", "e.md", "--config", config], io)).toBe(0);
    expect(err).toContain("\r\x1b[2Krunning: Main · 1 effect · 1 tool call");
    expect(err).toContain("\r\x1b[2Krunning: Main · 2 effects · 2 tool calls");
    expect(err.at(-1)).toBe("\r\x1b[2K");
  });

  it("shows a tool's unexpected exception, which the run sees as a generic failure", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({
      "b.md": echoing.replace(/local said[\s\S]*there'\)/, "return tools.call('echo/boom')"),
    });
    expect(await runCli(["run", "b.md", "--config", config], io)).toBe(1);
    const lines = io.err.split("\n");
    expect(lines[0]).toBe(
      "tool echo/boom failed unexpectedly (the run sees a generic failure): Error: kaboom",
    );
    expect(io.err).toContain("Tool error: tool call failure: echo_boom: the tool failed\n");
  });

  it("runs a model round on a configured provider", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({ "m.md": modelling("echo-model") });
    expect(await runCli(["run", "m.md", "--config", config], io)).toBe(0);
    expect(io.out).toBe("echo: hi\n");
    expect(io.err).toBe("");
  });

  it("shows a model provider's unexpected exception, which the run sees as a generic failure", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({ "m.md": modelling("boom-model") });
    expect(await runCli(["run", "m.md", "--config", config], io)).toBe(1);
    const lines = io.err.split("\n");
    expect(lines[0]).toBe(
      "model round on boom-model failed unexpectedly (the run sees a generic failure): Error: model wire cut",
    );
    expect(io.err).toContain(
      "Completion error: echo: the model round failed\ncause: model round 1 of section Main on boom-model (role writer)\n",
    );
  });

  it("refuses a prompt the Host cannot serve, in text and in JSON", async () => {
    const notice =
      "the environment cannot satisfy this prompt:\n- user-input needs runvil/input-broker, and the environment provides none";
    const text = memoryIo({ "a.md": asking });
    expect(await runCli(["run", "a.md"], text)).toBe(1);
    expect(text.out).toBe("");
    expect(text.err).toBe(`a.md: RequirementsUnmet error: ${notice}\n`);
    const json = memoryIo({ "a.md": asking });
    expect(await runCli(["run", "a.md", "--json"], json)).toBe(1);
    expect(JSON.parse(json.out)).toEqual({
      outcome: "failed",
      error: { kind: "RequirementsUnmet", message: notice, causes: [] },
      var: {},
      usage: NO_USAGE_JSON,
    });
    expect(json.err).toBe("");
  });

  it("lends the operator's broker: answers in order, erasing the progress line first", async () => {
    const answers = ["one", "two"];
    const err: string[] = [];
    const io = {
      ...memoryIo({ "a.md": asking }),
      stderrIsTTY: true,
      operator: {
        isTTY: true,
        broker: () => ({
          ask: async () => {
            err.push("<ask>");
            return answers.shift() ?? "";
          },
        }),
      },
    };
    io.stderr = (t: string) => err.push(t);
    expect(await runCli(["run", "a.md"], io)).toBe(0);
    expect(err.indexOf("<ask>")).toBeGreaterThan(0);
    expect(err[err.indexOf("<ask>") - 1]).toBe("\r\x1b[2K");
    const none = memoryIo({ "a.md": asking });
    expect(
      await runCli(["run", "a.md", "--input", "none"], { ...none, operator: io.operator }),
    ).toBe(1);
    expect(none.err).toContain("- user-input needs runvil/input-broker");
  });

  it("prints the answers' result and a failing broker's message", async () => {
    const ok = memoryIo({ "a.md": asking });
    const answers = ["one", "two"];
    const operator = { isTTY: false, broker: () => ({ ask: async () => answers.shift() ?? "" }) };
    expect(await runCli(["run", "a.md", "--input", "stdin"], { ...ok, operator })).toBe(0);
    expect(ok.out).toBe("one+two\n");
    const closed = memoryIo({ "a.md": asking });
    const failing = {
      isTTY: false,
      broker: () => ({
        ask: () => Promise.reject(new Error("the operator's window closed")),
      }),
    };
    expect(
      await runCli(["run", "a.md", "--input", "stdin"], { ...closed, operator: failing }),
    ).toBe(1);
    expect(closed.err).toContain("Tool error: tool call failure: the operator's window closed");
  });
});

describe("losslessJson", () => {
  it("writes bigints with every digit", () => {
    expect(losslessJson({ a: 9007199254740993n, b: [1, undefined, "x"], c: undefined })).toBe(
      '{"a":9007199254740993,"b":[1,null,"x"]}',
    );
  });
});

const pricedWriter = `---
name: priced
description: Two rounds on a priced model.
runvil: 0
models:
  writer: { model: priced-echo-model, max_output_tokens: 100 }
---

# Priced

## Main

\`\`\`lua
models.use('writer')
models.infer('one')
return models.infer('two')
\`\`\`
`;

describe("runvil run: the cost line", () => {
  const line =
    "model usage: 2 rounds, 2200 tokens (2000 input of which 800 cached, 200 output), cost $0.0044\n";

  it("prints the run's tokens and cost on stderr with --cost, keeping stdout the result", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({ "p.md": pricedWriter });
    expect(await runCli(["run", "p.md", "--config", config, "--cost"], io)).toBe(0);
    expect(io.out).toBe("echo: two\n");
    expect(io.err).toBe(line);
  });

  it("prints it at the end on a terminal without --cost, and not on a pipe", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const err: string[] = [];
    const tty = { ...memoryIo({ "p.md": pricedWriter }), stderrIsTTY: true };
    tty.stderr = (text: string) => err.push(text);
    expect(await runCli(["run", "p.md", "--config", config], tty)).toBe(0);
    expect(err.at(-1)).toBe(line);
    const piped = memoryIo({ "p.md": pricedWriter });
    expect(await runCli(["run", "p.md", "--config", config], piped)).toBe(0);
    expect(piped.err).toBe("");
  });

  it("says the cost is unknown on a model without prices", async () => {
    const { dir, config } = echoPluginDir();
    made.push(dir);
    const io = memoryIo({ "p.md": pricedWriter.replace("priced-echo-model", "echo-model") });
    expect(await runCli(["run", "p.md", "--config", config, "--cost"], io)).toBe(0);
    expect(io.err).toBe(
      "model usage: 2 rounds, 4 tokens (2 input, 2 output), cost unknown (2 of 2 rounds ran on a model without prices)\n",
    );
  });

  it("stops the run at the budget of runvil.config.json, then prints what it spent", async () => {
    const { dir } = echoPluginDir();
    made.push(dir);
    const config = join(dir, "budget.config.json");
    writeFileSync(
      config,
      '{ "plugins": [{ "module": "./echo-plugin.mjs" }], "budget": { "run": { "max_cost_usd": 0.003 } } }',
    );
    const io = memoryIo({ "p.md": pricedWriter });
    expect(await runCli(["run", "p.md", "--config", config, "--cost"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toBe(
      [
        "Quota error: budget exceeded: model round 2 of section Main on priced-echo-model (role writer) may cost up to $0.00081 (a 5-token request and up to 100 output tokens), and the run has spent $0.0022 of its $0.003 budget (run.max_cost_usd, from the Host's config); the round was not sent",
        "cause: model round 2 of section Main on priced-echo-model (role writer)",
        "model usage: 1 round, 1100 tokens (1000 input of which 400 cached, 100 output), cost $0.0022",
        "",
      ].join("\n"),
    );
  });
});
