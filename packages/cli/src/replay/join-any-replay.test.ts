import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";

const folders = tempFolders();
afterAll(() => folders.removeAll());

/** A plugin whose Pack `test/wait` has `wait/ms {ms}`: answers `ms` after that many milliseconds. */
const WAIT_PLUGIN = `export default {
  name: "wait-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "wait",
      description: "Waits.",
      tools: [
        {
          id: "wait/ms",
          description: "Answers after ms milliseconds.",
          parameters: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
          trust: "trusted",
          run: (args) => new Promise((resolve) => setTimeout(() => resolve(String(args.ms)), args.ms)),
        },
      ],
    });
  },
};
`;

/** Four concurrent tasks, each waiting its own time; join_any takes them as they finish. */
const PROMPT = `---
name: first-done
description: Takes concurrent tasks in the order they finish.
runvil: 0
uses: [test/wait]
---

# First done

## Main

\`\`\`lua
local pending = {}
for i, ms in ipairs({ 24, 3, 12, 1, 6 }) do pending[i] = tasks.spawn('### Wait', ms) end
local order = {}
while #pending > 0 do
  local e, i = tasks.join_any(pending)
  order[#order + 1] = e.result
  table.remove(pending, i)
end
return table.concat(order, ' ')
\`\`\`

### Wait

\`\`\`lua
return tools.call('wait/ms', { ms = item })
\`\`\`
`;

describe("a run of concurrent tasks taken with join_any", () => {
  it("replays byte for byte 20 times: each choice comes from the record, not the replay's timing", async () => {
    const folder = folders.make();
    writeFileSync(join(folder, "wait-plugin.mjs"), WAIT_PLUGIN);
    writeFileSync(
      join(folder, "runvil.config.json"),
      '{ "plugins": [{ "module": "./wait-plugin.mjs" }] }',
    );
    writeFileSync(join(folder, "first-done.md"), PROMPT);
    const journal = join(folder, "runs.db");
    const io = diskIo();
    const code = await runCli(
      ["run", join(folder, "first-done.md"), "--journal", journal, "--input", "none"],
      io,
    );
    expect(io.err).toBe("");
    expect(code).toBe(0);
    // Live, the tasks finish by their waits (the order the recording keeps, whatever it was).
    expect(io.out).toMatch(/^(\d+ ){4}\d+\n$/);
    for (let i = 0; i < 20; i += 1) {
      io.reset();
      expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
      expect(io.out).toMatch(
        /: reproduced \(5 effects answered by the journal, \d+ events identical, the same result\)\n$/,
      );
    }
  });
});
