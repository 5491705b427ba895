import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJournalPort, type Journal, type JournalPort, openJournal } from "@runvil/journal";
import type {
  EffectOrigin,
  EffectPort,
  ModelRoundEffectRequest,
  RunEvent,
  RunResult,
  StoreRequest,
  ToolCallRequest,
} from "@runvil/protocol";

/**
 * Runs recorded for the inspector's tests through the journal's own recording port (the port
 * the CLI records with), with the events an Engine emits for them. The CLI's tests record real
 * `runvil run` runs.
 */

export const FETCH_PROMPT = `---
name: fetch-summary
description: Fetches a page and has a model summarise it.
runvil: 0
uses: [web]
models:
  writer:
    model: scripted:writer
---

# Fetch summary

\`\`\`lua
var.url = args
\`\`\`

## Fetch

\`\`\`lua
local page = tools.call('web/fetch', { url = var.url })
store.write('page.txt', page)
messages:user('Summarise:\\n' .. page)
local summary = models.infer('writer')
return summary.text
\`\`\`
`;

const signal = new AbortController().signal;

/** A temporary folder with a journal file in it, and a way to remove both. */
export async function tempJournal(): Promise<{
  journal: Journal;
  file: string;
  remove(): Promise<void>;
}> {
  const folder = mkdtempSync(join(tmpdir(), "runvil-inspector-"));
  const file = join(folder, "runs.db");
  const journal = await openJournal(file);
  return {
    journal,
    file,
    async remove() {
      await journal.close().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The answers a recorded run's live port gives. */
export interface LiveAnswers {
  /** What web/fetch answers (untrusted). */
  readonly page: string;
  /** The model's reply. */
  readonly reply: string;
}

function livePort(answers: LiveAnswers): EffectPort {
  return {
    async storeOp() {
      // A write answers nothing.
      return undefined as never;
    },
    async toolCall() {
      return { text: answers.page, trusted: false };
    },
    async modelRound() {
      return {
        text: answers.reply,
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 120, outputTokens: 18 },
      };
    },
    emit() {},
  };
}

const usage = {
  total: {
    rounds: 1,
    inputTokens: 120,
    outputTokens: 18,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUsd: "0",
    unpricedRounds: 0,
  },
  byModel: {},
  bySection: {},
  byTask: {},
  sections: [],
};

/** The untrusted envelope the Engine puts around a tool's output (shape only, for the tests). */
export function envelope(text: string): string {
  return `<untrusted-output nonce="t1">\n${text}\n</untrusted-output nonce="t1">`;
}

/**
 * A run of {@link FETCH_PROMPT} being recorded, one step at a time: `step()` records the next
 * part (the H1 pass; the fetch; the store write; the model round; the ending) and says whether
 * there is more. A test can look at the journal between steps, as at a run still recording.
 */
export class SteppedRun {
  readonly runId: string;
  readonly #port: JournalPort;
  readonly #answers: LiveAnswers;
  readonly #fail: boolean;
  #seq = 0;
  #step = 0;

  private constructor(port: JournalPort, answers: LiveAnswers, fail: boolean) {
    this.#port = port;
    this.runId = port.runId;
    this.#answers = answers;
    this.#fail = fail;
  }

  /** Starts recording (nothing is recorded until the first step). */
  static async start(
    journal: Journal,
    answers: LiveAnswers,
    options: { readonly fail?: boolean; readonly startedAt?: number } = {},
  ): Promise<SteppedRun> {
    const recorder = await journal.startRun({
      promptPath: "/work/prompts/fetch-summary.md",
      promptBytes: new TextEncoder().encode(FETCH_PROMPT),
      args: "https://example.test/",
      seed: "42",
      startedAt: options.startedAt ?? Date.now(),
      host: { catalog: { tools: [{ id: "web/fetch" }] } },
      bindings: { writer: "scripted:writer" },
      versions: { "@runvil/inspector": "test" },
    });
    return new SteppedRun(
      createJournalPort(livePort(answers), recorder),
      answers,
      options.fail === true,
    );
  }

  #emit(entry: string | null, section: string, type: string, fields: object = {}): void {
    this.#seq += 1;
    this.#port.effects.emit({
      seq: this.#seq,
      type,
      execution: "run-1",
      chain: "0",
      entry,
      section,
      ...fields,
    } as RunEvent);
  }

  #origin(entry: string, section: string): EffectOrigin {
    return { execution: "run-1", chain: "0", entry, section, task: "0" };
  }

  /** Records the next part of the run; false once the run has ended. */
  async step(): Promise<boolean> {
    this.#step += 1;
    const e = this.#emit.bind(this);
    const fetchOrigin = this.#origin("0.1", "Fetch");
    switch (this.#step) {
      case 1:
        e(null, "Fetch summary", "run_started");
        e(null, "Fetch summary", "model_role_bound", { role: "writer", model: "scripted:writer" });
        e("0.0", "Fetch summary", "section_entered", { via: "h1" });
        e("0.0", "Fetch summary", "chunk_started", { block: "H1 `Fetch summary` lua" });
        e("0.0", "Fetch summary", "chunk_succeeded", { block: "H1 `Fetch summary` lua" });
        e("0.0", "Fetch summary", "section_completed", { ended: "fall_through" });
        e("0.1", "Fetch", "section_entered", { via: "walk" });
        e("0.1", "Fetch", "chunk_started", { block: "section `Fetch` prologue" });
        return true;
      case 2: {
        const args = { url: "https://example.test/" };
        e("0.1", "Fetch", "tool_call_started", {
          turn: 0,
          tool_call_id: "",
          alias: "web/fetch",
          tool: "web/fetch",
          caller: "script",
          arguments: args,
        });
        const request: ToolCallRequest = {
          tool: "web/fetch",
          name: "web/fetch",
          arguments: args,
          caller: "script",
          callId: "",
          origin: fetchOrigin,
          effect: "0.1/1",
          signal,
        };
        await this.#port.effects.toolCall!(request);
        const base = { turn: 0, tool_call_id: "", alias: "web/fetch", tool: "web/fetch" };
        e("0.1", "Fetch", "tool_call_succeeded", { ...base, caller: "script" });
        e("0.1", "Fetch", "tool_result", {
          ...base,
          content: envelope(this.#answers.page),
          trusted: false,
        });
        return true;
      }
      case 3: {
        const request: StoreRequest = {
          operation: { op: "write", path: "page.txt", contents: this.#answers.page },
          origin: fetchOrigin,
          effect: "0.1/2",
          signal,
        };
        await this.#port.effects.storeOp(request);
        e("0.1", "Fetch", "store_op", { op: "write", path: "page.txt", ok: true });
        e("0.1", "Fetch", "lua_checkpoint", { message: "stored the page" });
        return true;
      }
      case 4: {
        const round = { turn: 1, role: "writer", model: "scripted:writer", via: "infer" };
        e("0.1", "Fetch", "model_turn_started", {
          ...round,
          messages: 1,
          tools: 0,
          estimated_tokens: 100,
        });
        const request: ModelRoundEffectRequest = {
          role: "writer",
          model: "scripted:writer",
          via: "infer",
          turn: 1,
          system: "You summarise pages in one sentence.",
          messages: [{ role: "user", content: `Summarise:\n${envelope(this.#answers.page)}` }],
          tools: [],
          settings: {},
          origin: fetchOrigin,
          effect: "0.1/3",
          signal,
          stopSignal: signal,
        };
        await this.#port.effects.modelRound!(request);
        e("0.1", "Fetch", "model_turn_completed", {
          ...round,
          finish_reason: "stop",
          input_tokens: 120,
          output_tokens: 18,
          cached_input_tokens: 0,
          reasoning_tokens: 0,
          tool_calls: 0,
          cost_usd: "0.0001",
          section_tokens: 138,
          section_cost_usd: "0.0001",
          task_tokens: 138,
          task_cost_usd: "0.0001",
        });
        return true;
      }
      default:
        return this.#end();
    }
  }

  async #end(): Promise<false> {
    const e = this.#emit.bind(this);
    let result: RunResult;
    if (this.#fail) {
      e("0.1", "Fetch", "chunk_failed", { block: "section `Fetch` prologue" });
      e(null, "Fetch summary", "run_finished", { outcome: "failed", error_kind: "Lua" });
      result = {
        outcome: "failed",
        error: {
          kind: "Lua",
          message:
            "section `Fetch` prologue:24: runtime error: section `Fetch` prologue:24: attempt to index a nil value (local 'summary')",
          causes: [],
          entry: "0.1",
          section: "Fetch",
        },
        var: {},
        events: this.#seq,
        usage,
      } as RunResult;
    } else {
      e("0.1", "Fetch", "chunk_succeeded", { block: "section `Fetch` prologue" });
      e("0.1", "Fetch", "section_completed", { ended: "return" });
      e(null, "Fetch summary", "run_finished", { outcome: "succeeded" });
      result = {
        outcome: "succeeded",
        result: this.#answers.reply,
        var: {},
        events: this.#seq,
        usage,
      } as RunResult;
    }
    await this.#port.finish(result);
    return false;
  }

  /** Records every remaining step. */
  async finish(): Promise<void> {
    while (await this.step()) {
      // each step records one part
    }
  }
}

/** Records a whole run of {@link FETCH_PROMPT} and returns its id. */
export async function recordFetchRun(
  journal: Journal,
  answers: LiveAnswers,
  options: { readonly fail?: boolean; readonly startedAt?: number } = {},
): Promise<string> {
  const run = await SteppedRun.start(journal, answers, options);
  await run.finish();
  return run.runId;
}
