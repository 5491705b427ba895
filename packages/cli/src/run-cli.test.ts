import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli";
import { memoryIo } from "./test-io";
import { echoPluginDir } from "./test-plugin";
import { VERSION } from "./version";

const good = `---
name: demo
description: A demo prompt.
runvil: 0
uses: [subagents]
---

# Demo

\`\`\`lua
var.n = 1
\`\`\`

## Work

Some prose.

\`\`\`lua
return var.n
\`\`\`

### Helpers

\`\`\`lua
x = 1
\`\`\`
`;

const brokenLua = `---
name: broken-check
description: Holds an epilog that does not compile.
runvil: 0
---

# Broken check

## Check

Ask the model.

\`\`\`lua
local secret =
return secret
\`\`\`
`;

const badUses = `---
name: bad
description: Bad uses.
runvil: 0
uses: [acme/web/fetch]
---

# Bad
`;

describe("runvil check", () => {
  it("prints the outline of a prompt that parses and exits 0", async () => {
    const io = memoryIo({ "demo.md": good });
    expect(await runCli(["check", "demo.md"], io)).toBe(0);
    expect(io.err).toBe("");
    expect(io.out).toBe(
      [
        "demo.md: ok",
        "  demo: A demo prompt.",
        "  uses: subagents (runvil/subagents)",
        "  # Demo  (line 8)",
        "    lua    H1 `Demo` lua  line 11",
        "  ## Work  (line 14)",
        "    prose  line 16",
        "    lua    section `Work` epilog  line 19",
        "    ### Helpers  (line 22)",
        "      lua    section `Helpers` prologue  line 25",
        "  1 top-level section, 2 in all, 3 Lua blocks",
        "",
      ].join("\n"),
    );
  });

  it("prints a compile error with its kind and exits 1", async () => {
    const io = memoryIo({ "broken.md": brokenLua });
    expect(await runCli(["check", "broken.md"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toMatch(
      /^broken\.md: Lua error: lua compilation error at section `Check` epilog \(line 14\): \[string "line 14"\]:2: /,
    );
  });

  it("prints a frontmatter error with the chapter's text", async () => {
    const io = memoryIo({ "bad.md": badUses });
    expect(await runCli(["check", "bad.md"], io)).toBe(1);
    expect(io.err).toContain(
      "bad.md: Frontmatter error: invalid frontmatter: invalid uses entry `acme/web/fetch`: a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web`",
    );
  });

  it("checks every file, counts them, and fails when any fails", async () => {
    const io = memoryIo({ "a.md": good, "b.md": badUses });
    expect(await runCli(["check", "a.md", "b.md", "missing.md"], io)).toBe(1);
    expect(io.out).toContain("a.md: ok");
    expect(io.err).toContain("b.md: Frontmatter error:");
    expect(io.err).toContain("missing.md: no such file");
    expect(io.out).toContain("1 of 3 prompts pass");
  });

  it("prints a JSON report with --json", async () => {
    const io = memoryIo({ "a.md": good, "b.md": brokenLua });
    expect(await runCli(["check", "--json", "a.md", "b.md"], io)).toBe(1);
    const report = JSON.parse(io.out) as {
      ok: boolean;
      files: {
        file: string;
        ok: boolean;
        outline?: { sectionCount: number; sections: { reference: string }[] };
        error?: { kind: string; message: string };
      }[];
    };
    expect(report.ok).toBe(false);
    expect(report.files[0]?.ok).toBe(true);
    expect(report.files[0]?.outline?.sectionCount).toBe(1);
    expect(report.files[0]?.outline?.sections.map((s) => s.reference)).toEqual([
      "## Work",
      "### Helpers",
    ]);
    expect(report.files[1]?.error?.kind).toBe("Lua");
    expect(io.err).toBe("");
  });

  it("prints the requirements notice of a refused prepare, every problem at once", async () => {
    const io = memoryIo({ "demo.md": good.replace("uses: [subagents]", "uses: [web, acme/poop]") });
    expect(await runCli(["check", "demo.md"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toBe(
      [
        "demo.md: RequirementsUnmet error: the environment cannot satisfy this prompt:",
        "- web needs runvil/search-provider, and the environment provides none",
        "- poop is unavailable: acme/poop is not installed",
        "",
      ].join("\n"),
    );
    const json = memoryIo({ "demo.md": good.replace("uses: [subagents]", "uses: [web]") });
    expect(await runCli(["check", "--json", "demo.md"], json)).toBe(1);
    expect(JSON.parse(json.out)).toEqual({
      ok: false,
      files: [
        {
          file: "demo.md",
          ok: false,
          error: {
            kind: "RequirementsUnmet",
            message:
              "the environment cannot satisfy this prompt:\n- web needs runvil/search-provider, and the environment provides none",
          },
        },
      ],
      diagnostics: [
        {
          file: "demo.md",
          line: 5,
          column: 8,
          endLine: 5,
          endColumn: 11,
          severity: "error",
          message: "web needs runvil/search-provider, and the environment provides none",
          code: "RequirementsUnmet",
        },
      ],
    });
  });

  it("counts on the operator's broker as runvil run --input would", async () => {
    const asks = good.replace("uses: [subagents]", "uses: [user-input]");
    const notice =
      "ask.md: RequirementsUnmet error: the environment cannot satisfy this prompt:\n- user-input needs runvil/input-broker, and the environment provides none\n";
    const none = memoryIo({ "ask.md": asks });
    expect(await runCli(["check", "ask.md"], none)).toBe(1);
    expect(none.err).toBe(notice);
    const operator = { isTTY: true, broker: () => ({ ask: async () => "x" }) };
    const tty = memoryIo({ "ask.md": asks });
    expect(await runCli(["check", "ask.md"], { ...tty, operator })).toBe(0);
    expect(tty.out).toMatch(/^ask\.md: ok\n/);
    const refused = memoryIo({ "ask.md": asks });
    expect(await runCli(["check", "ask.md", "--input", "none"], { ...refused, operator })).toBe(1);
    expect(refused.err).toBe(notice);
    const pipe = memoryIo({ "ask.md": asks });
    const pipeOperator = { ...operator, isTTY: false };
    expect(await runCli(["check", "ask.md"], { ...pipe, operator: pipeOperator })).toBe(1);
    expect(
      await runCli(["check", "ask.md", "--input", "stdin"], { ...pipe, operator: pipeOperator }),
    ).toBe(0);
    const bad = memoryIo({ "ask.md": asks });
    expect(await runCli(["check", "ask.md", "--input", "tty"], bad)).toBe(2);
    expect(bad.err).toBe('error: --input must be one of auto, stdin, none, got "tty"\n');
  });

  it("shows each model role's binding after models:, and lists them in --json", async () => {
    const { config } = echoPluginDir();
    const roles = good.replace(
      "uses: [subagents]",
      "uses: [subagents]\nmodels:\n  writer: { model: [gpt-5, echo-model] }\n  critic: { model: boom-model }",
    );
    const io = memoryIo({ "demo.md": roles });
    expect(await runCli(["check", "demo.md", "--config", config], io)).toBe(0);
    expect(io.out.split("\n").slice(0, 7)).toEqual([
      "demo.md: ok",
      "  demo: A demo prompt.",
      "  uses: subagents (runvil/subagents)",
      "  models: writer, critic",
      "  model writer: echo-model (provider echo, 8192-token context, tools)",
      "  model critic: boom-model (provider echo, 4096-token context, no tools)",
      "  # Demo  (line 11)",
    ]);
    const json = memoryIo({ "demo.md": roles });
    expect(await runCli(["check", "--json", "demo.md", "--config", config], json)).toBe(0);
    const report = JSON.parse(json.out) as { files: { bindings?: unknown }[] };
    expect(report.files[0]?.bindings).toEqual([
      { role: "writer", model: "echo-model", provider: "echo", from: "model" },
      { role: "critic", model: "boom-model", provider: "echo", from: "model" },
    ]);
  });

  it("refuses a prompt with model roles on a Host without model providers, saying so", async () => {
    const roles = good.replace("uses: [subagents]", "uses: [subagents]\nmodels:\n  writer: {}");
    const io = memoryIo({ "demo.md": roles });
    expect(await runCli(["check", "demo.md"], io)).toBe(1);
    expect(io.err).toBe(
      [
        "demo.md: RequirementsUnmet error: the environment cannot satisfy this prompt:",
        "- model role writer cannot be bound: it names no model, and this host has no default model; set model: under models.writer; this host has no model provider",
        '  fix: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or add to runvil.config.json: "providers": { "local": { "module": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:11434/v1" }, "models": { "llama3.2": { "contextWindow": 131072, "maxOutputTokens": 8192 } } } }',
        "",
      ].join("\n"),
    );
  });

  it("reports a Host that cannot be set up", async () => {
    const io = memoryIo({ "demo.md": good });
    expect(await runCli(["check", "demo.md", "--config", "no-such-config.json"], io)).toBe(1);
    expect(io.err).toMatch(
      /^demo\.md: Host error: no-such-config\.json: cannot read the file: no such file/,
    );
  });

  it("refuses bytes that are not UTF-8 with an Encoding error", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("---\nname: x\n"), 0xff, 0x0a]);
    const io = memoryIo({ "bin.md": bytes });
    expect(await runCli(["check", "bin.md"], io)).toBe(1);
    expect(io.err).toMatch(/^bin\.md: Encoding error: .*line 3/);
  });

  it("exits 2 on a usage error and 0 for --version", async () => {
    const usage = memoryIo({});
    expect(await runCli(["check"], usage)).toBe(2);
    expect(usage.err).toContain("missing required argument");
    const unknown = memoryIo({});
    expect(await runCli(["frobnicate"], unknown)).toBe(2);
    const version = memoryIo({});
    expect(await runCli(["--version"], version)).toBe(0);
    expect(version.out.trim()).toBe(VERSION);
  });
});
