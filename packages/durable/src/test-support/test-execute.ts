import { loadEngine } from "@runvil/engine";
import { MemoryStore } from "@runvil/harness";
import { parsePrompt } from "@runvil/parser";
import type { CatalogTool, EffectPort, RunCatalog, RunResult } from "@runvil/protocol";
import type { RunStore } from "@runvil/sdk";
import type { DurableExecution, ExecuteRun } from "../run-workflow";
import { ScriptedPort, type ScriptedPortOptions } from "./scripted-port";

export const ECHO: CatalogTool = {
  id: "fix/echo",
  pack: "fix",
  wireName: "fix_echo",
  description: "Echoes its value.",
  parameters: { type: "object", properties: { value: { type: "string" } } },
  structured: false,
};

export const ASK: CatalogTool = {
  id: "user-input/ask",
  pack: "user-input",
  wireName: "user_input_ask",
  description: "Wait for the operator's next message and return its text.",
  parameters: { type: "object", properties: {} },
  structured: false,
};

export const CATALOG: RunCatalog = {
  tools: [ECHO, ASK],
  packs: null,
  preludes: [],
  dropped: [],
  models: [
    {
      label: "writer",
      model: "scripted-model",
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      tools: true,
      settings: {},
      maxRounds: 20,
    },
  ],
};

let engine: ReturnType<typeof loadEngine> | undefined;

/** Runs a parsed prompt on `effects` with the input's seed and start instant. */
export async function runOn(
  effects: EffectPort,
  text: string,
  input: { args: string; seed: number; startedAt: number },
  signal?: AbortSignal,
): Promise<RunResult> {
  engine ??= loadEngine();
  const parsed = await parsePrompt(text);
  if (!parsed.ok) throw new Error(`test prompt does not parse: ${parsed.error.message}`);
  return (await engine).run(parsed.prompt, {
    effects,
    args: input.args,
    seed: input.seed,
    start: input.startedAt,
    catalog: CATALOG,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** What a test's execute keeps of each execution. */
export interface ExecutionLog {
  readonly runId: string;
  readonly port: ScriptedPort;
  readonly execution: DurableExecution;
}

/**
 * An ExecuteRun over a ScriptedPort: the store is `stores(runId)` (default a MemoryStore per
 * execution), the port's options from `portOptions`.
 */
export function testExecute(
  log: ExecutionLog[],
  options: {
    readonly stores?: (runId: string) => RunStore;
    readonly portOptions?: (runId: string) => Omit<ScriptedPortOptions, "store">;
  } = {},
): ExecuteRun {
  return async (execution) => {
    const { input } = execution;
    const store = options.stores?.(input.runId) ?? new MemoryStore();
    const port = new ScriptedPort({ store, ...options.portOptions?.(input.runId) });
    log.push({ runId: input.runId, port, execution });
    return runOn(execution.wrap(port), input.prompt.text, input, execution.signal);
  };
}

/** A prompt file around `body`. */
export function promptText(body: string, frontmatter = "models:\n  writer: {}\n"): string {
  return `---\nname: test\ndescription: A test prompt.\nrunvil: 0\n${frontmatter}---\n\n${body}`;
}

/** A fenced Lua block. */
export function lua(code: string): string {
  return `\`\`\`lua\n${code}\n\`\`\``;
}
