import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { runTestPrompt } from "../test-support/run-prompt";

const brief = (e: RunEvent): string => `${e.type} ${e.entry ?? "-"} ${e.section}`;

describe("run events", () => {
  it("reports every step in order with its chain, entry and section", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Log Checkpoints",
          lua("log('H1 ran')"),
          "## Prepare",
          lua("log('prepare ' .. call('### Sub'))"),
          "Gather the notes.",
          lua("jump('## Finish')"),
          "### Sub",
          lua("return 'sub'"),
          "## Skipped",
          lua("error('skipped')"),
          "## Finish",
          lua("return 'finished'"),
        ),
      ),
      { execution: "execute-test" },
    );
    expect(run.result).toMatchObject({ outcome: "succeeded", result: "finished" });
    expect(run.port.events.map(brief)).toEqual([
      "run_started - Log Checkpoints",
      "section_entered 0.0 Log Checkpoints",
      "chunk_started 0.0 Log Checkpoints",
      "lua_checkpoint 0.0 Log Checkpoints",
      "chunk_succeeded 0.0 Log Checkpoints",
      "teardown_started 0.0 Log Checkpoints",
      "teardown_succeeded 0.0 Log Checkpoints",
      "section_completed 0.0 Log Checkpoints",
      "section_entered 0.1 Prepare",
      "chunk_started 0.1 Prepare",
      "call_started 0.1 Prepare",
      "section_entered 0.0.0 Sub",
      "chunk_started 0.0.0 Sub",
      "chunk_succeeded 0.0.0 Sub",
      "teardown_started 0.0.0 Sub",
      "teardown_succeeded 0.0.0 Sub",
      "section_completed 0.0.0 Sub",
      "call_returned 0.1 Prepare",
      "lua_checkpoint 0.1 Prepare",
      "chunk_succeeded 0.1 Prepare",
      "chunk_started 0.1 Prepare",
      "chunk_succeeded 0.1 Prepare",
      "jump 0.1 Prepare",
      "teardown_started 0.1 Prepare",
      "teardown_succeeded 0.1 Prepare",
      "section_completed 0.1 Prepare",
      "section_entered 0.2 Finish",
      "chunk_started 0.2 Finish",
      "chunk_succeeded 0.2 Finish",
      "teardown_started 0.2 Finish",
      "teardown_succeeded 0.2 Finish",
      "section_completed 0.2 Finish",
      "run_finished - Log Checkpoints",
    ]);
    expect(run.port.events.map((e) => e.seq)).toEqual(run.port.events.map((_, i) => i + 1));
    expect(run.result.events).toBe(run.port.events.length);
    const sub = run.port.events.find((e) => e.type === "section_entered" && e.entry === "0.0.0");
    expect(sub).toMatchObject({ chain: "0.0", via: "call", execution: "execute-test" });
    expect(run.port.events.find((e) => e.type === "call_started")).toMatchObject({
      target: "### Sub",
      child: "0.0",
    });
    expect(run.port.events.find((e) => e.type === "jump")).toMatchObject({ target: "## Finish" });
    expect(run.port.events.at(-1)).toMatchObject({ outcome: "succeeded" });
    expect(run.port.checkpoints()).toEqual(["Lua: H1 ran", "Lua: prepare sub"]);
  });

  it("reports a failing block with chunk_failed, still tears down, then finishes failed", async () => {
    const run = await runTestPrompt(promptText(body("# T", "## A", lua("error('x')"))));
    expect(run.port.events.map((e) => e.type)).toEqual([
      "run_started",
      "section_entered",
      "section_completed",
      "section_entered",
      "chunk_started",
      "chunk_failed",
      "teardown_started",
      "teardown_succeeded",
      "run_finished",
    ]);
    expect(run.port.events.at(-1)).toMatchObject({ outcome: "failed", error_kind: "Lua" });
  });
});
