import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";
import { chunk, ScriptedOpenAiServer, usageChunk } from "../test-openai-server";

/**
 * What `runvil runs list` and `runs show` count as tool calls (docs/design/journal.md "What a
 * tool call count counts"): every call a script or a model made, by kind, through a real run
 * against a local OpenAI-compatible server.
 */

const folders = tempFolders();
afterEach(() => folders.removeAll());

const PROMPT = `---
name: counted
description: A script's catalog call, then a model that calls a local tool and a task built-in.
runvil: 0
uses: [test/count]
models:
  helper:
    model: local:qwen3
---

# Counted

\`\`\`lua
models.default('helper')
\`\`\`

## Work

\`\`\`lua
local first = tools.call('count/tick', { n = 1 })
tools.offer_local('note', 'Keep a note', { text = { 'string', 'the note' } }, function(a)
  return 'kept ' .. a.text
end)
tools.allow_tasks({ '## Side' })
messages:user('Note something, then check your tasks.')
return first .. ' / ' .. models.loop()
\`\`\`

## Side

\`\`\`lua
return 'side'
\`\`\`
`;

const PLUGIN = `export default {
  name: "count-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "count",
      description: "Counts its calls.",
      tools: [{
        id: "count/tick",
        description: "Counts one call.",
        parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        trust: "trusted",
        run(args) { return "tick " + args.n; },
      }],
    });
  },
};
`;

/** The model's replies: a round calling the local tool and a task built-in, then its answer. */
function answers() {
  return [
    {
      sse: [
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "c1",
              type: "function",
              function: { name: "note", arguments: '{"text":"cats"}' },
            },
            {
              index: 1,
              id: "c2",
              type: "function",
              function: { name: "task_status", arguments: "{}" },
            },
          ],
        }),
        chunk({}, "tool_calls"),
        usageChunk(50, 10),
      ],
    },
    {
      sse: [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "noted" }),
        chunk({}, "stop"),
        usageChunk(70, 2),
      ],
    },
  ];
}

describe("the tool calls a run's record counts", () => {
  it("counts every call a script or a model made: catalog tools, local tools and task built-ins", async () => {
    const server = new ScriptedOpenAiServer(answers());
    const baseURL = await server.start();
    try {
      const folder = folders.make();
      const file = join(folder, "counted.md");
      writeFileSync(file, PROMPT);
      writeFileSync(join(folder, "count-plugin.mjs"), PLUGIN);
      writeFileSync(
        join(folder, "runvil.config.json"),
        JSON.stringify({
          plugins: [{ module: "./count-plugin.mjs" }],
          providers: {
            local: {
              module: "@ai-sdk/openai-compatible",
              options: { baseURL },
              models: { qwen3: { contextWindow: 40960, maxOutputTokens: 512, tools: true } },
            },
          },
        }),
      );
      const journal = join(folder, "runs.db");
      const run = diskIo();
      expect(await runCli(["run", file, "--journal", journal], run)).toBe(0);
      expect(run.out).toBe("tick 1 / noted\n");

      const list = diskIo();
      expect(await runCli(["runs", "list", "--journal", journal, "--json"], list)).toBe(0);
      const [summary] = JSON.parse(list.out) as Record<string, unknown>[];
      // One catalog call is the only tool effect; the local call and the built-in are not effects.
      expect(summary).toMatchObject({ toolCalls: 3, modelRounds: 2, effects: 3 });
      const table = diskIo();
      expect(await runCli(["runs", "list", "--journal", journal], table)).toBe(0);
      expect(table.out.split("\n")[1]).toMatch(/ succeeded +0 +2 +3 +132$/);

      const id = String(summary?.id);
      const show = diskIo();
      expect(await runCli(["runs", "show", id, "--journal", journal], show)).toBe(0);
      expect(show.out.split("\n")[2]).toMatch(
        /^3 effects · 2 model rounds · 3 tool calls \(1 catalog, 1 local, 1 task built-in\) · 132 tokens · \d+ events$/,
      );
      const json = diskIo();
      expect(await runCli(["runs", "show", id, "--journal", journal, "--json"], json)).toBe(0);
      expect(JSON.parse(json.out)).toMatchObject({
        toolCalls: 3,
        toolCallKinds: { catalog: 1, local: 1, taskBuiltins: 1 },
      });
    } finally {
      await server.close();
    }
  });
});
