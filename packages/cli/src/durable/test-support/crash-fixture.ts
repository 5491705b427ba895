import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnswerFor, chunk, usageChunk } from "../../test-openai-server";

/**
 * The Pack `test/count` (tests only): `count/bump {key}` appends
 * `{key}\t{pid}\t{runId}\t{effectId}` to the file named by RUNVIL_COUNT_FILE at the time of the
 * call (every execution, with the process that ran it and the ids its ToolContext lent), then
 * applies its side effect once per idempotency key `{runId}/{effectId}`: it creates the file
 * `applied/{key}` beside the count file exclusively (`wx`), a repeat finding it there does
 * nothing, as a remote service keyed by an idempotency key would. It answers `counted {key}`
 * 15 ms later.
 */
const COUNT_PLUGIN = `import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
export const countPlugin = {
  name: "count-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "count",
      description: "Counts calls.",
      tools: [
        {
          id: "count/bump",
          description: "Counts one call of its key.",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          trust: "trusted",
          run: async (args, ctx) => {
            const file = process.env.RUNVIL_COUNT_FILE;
            if (file === undefined) throw new Error("RUNVIL_COUNT_FILE is not set");
            appendFileSync(file, [args.key, process.pid, ctx.runId, ctx.effectId].join("\\t") + "\\n");
            const applied = join(dirname(file), "applied");
            mkdirSync(applied, { recursive: true });
            try {
              writeFileSync(join(applied, encodeURIComponent(ctx.runId + "/" + ctx.effectId)), args.key, { flag: "wx" });
            } catch (error) {
              if (error.code !== "EEXIST") throw error;
            }
            // A window after the side effect and before the step is recorded, so that some kills
            // land in it and the step runs again against a side effect already applied.
            await new Promise((resolve) => setTimeout(resolve, 15));
            return "counted " + args.key;
          },
        },
      ],
    });
  },
};
`;

/**
 * The crash test's prompt: per run, two model rounds, two tool calls with side effects, store
 * appends and writes, and a fanout of three arms each with a model round, a tool call and a
 * store write; the result folds in everything and the seeded random number.
 */
export const CRASH_PROMPT = `---
name: durable-crash
description: Model rounds, counted tool calls, store writes and a fanout, for the durable crash test.
runvil: 0
uses: [test/count]
models:
  writer:
    model: local:qwen3
    system: Answer in one word.
    max_output_tokens: 16
---

# Crash

\`\`\`lua
models.default('writer')
var.n = args
\`\`\`

## Work

\`\`\`lua
local first = models.infer('first ' .. var.n)
tools.call('count/bump', { key = var.n .. '/a' })
store.append('log.txt', 'first ' .. first .. '\\n')
local arms = tasks.fanout('### Arm', { { n = var.n, arm = 'x' }, { n = var.n, arm = 'y' }, { n = var.n, arm = 'z' } })
local parts = {}
for i, r in ipairs(arms) do
  if not r.ok then error(r.text, 0) end
  parts[i] = r.text
end
store.append('log.txt', 'arms ' .. table.concat(parts, ',') .. '\\n')
local second = models.infer('second ' .. var.n .. ' ' .. table.concat(parts, ','))
tools.call('count/bump', { key = var.n .. '/b' })
store.write('result.txt', second)
return var.n .. ': ' .. first .. ' | ' .. table.concat(parts, ',') .. ' | ' .. second .. ' | ' .. math.random(1000000)
\`\`\`

### Arm

\`\`\`lua
local said = models.infer('arm ' .. item.arm .. ' of ' .. item.n)
tools.call('count/bump', { key = item.n .. '/arm/' .. item.arm })
store.write('arms/' .. item.arm .. '.txt', said)
return item.arm .. '=' .. said
\`\`\`
`;

/** The last message's text of a chat completions request body. */
function lastContent(body: unknown): string {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages ?? [];
  const content = messages[messages.length - 1]?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? null);
}

/** A word that depends only on the request's last message. */
export function wordFor(text: string): string {
  return `w${createHash("sha256").update(text).digest("hex").slice(0, 8)}`;
}

/** The model server's answers: a streamed one-word reply that depends only on the request. */
export const crashAnswers: AnswerFor = (body) => ({
  sse: [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: wordFor(lastContent(body)) }),
    chunk({}, "stop"),
    usageChunk(12, 1),
  ],
});

/**
 * The crash prompt with an operator ask: a run whose argument starts with `ask` asks first and
 * folds the answer into its work (`user-input` declared for it).
 */
export const ASKING_CRASH_PROMPT = CRASH_PROMPT.replace(
  "uses: [test/count]",
  "uses: [test/count, user-input]",
).replace(
  "var.n = args\n",
  "var.n = args\nif args:match('^ask') then var.n = args .. '=' .. input.ask() end\n",
);

/**
 * A folder with the prompt (`text`, the crash prompt by default), the count plugin and a
 * runvil.config.json pointing at `baseURL`.
 */
export function crashFixture(
  baseURL: string,
  text: string = CRASH_PROMPT,
): { dir: string; prompt: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "runvil-durable-crash-"));
  writeFileSync(join(dir, "count-plugin.mjs"), COUNT_PLUGIN);
  const prompt = join(dir, "crash.md");
  writeFileSync(prompt, text);
  const config = join(dir, "runvil.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      plugins: [{ module: "./count-plugin.mjs" }],
      providers: {
        local: {
          module: "@ai-sdk/openai-compatible",
          options: { baseURL },
          retry: { initialDelayMs: 10, maxDelayMs: 20 },
          models: { qwen3: { contextWindow: 4096, maxOutputTokens: 64, tools: true } },
        },
      },
    }),
  );
  return { dir, prompt, config };
}
