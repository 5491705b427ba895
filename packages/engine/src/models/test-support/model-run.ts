import type { ModelRoundEffectRequest, RunBudget, RunModelRole, RunResult } from "@runvil/protocol";
import type { ModelReply } from "@runvil/sdk";
import { type Engine, loadEngine } from "../../run/engine";
import type { RunOptions } from "../../run/run-options";
import { MemoryPort } from "../../test-support/memory-port";
import { parseForTest } from "../../test-support/parse";
import { bindScenarioRoles, type ScenarioModels, ScriptedRounds } from "./scripted-rounds";

/** A MemoryPort with scripted model rounds. */
export class ModelPort extends MemoryPort {
  readonly rounds: ScriptedRounds;

  constructor(models: ScenarioModels = {}, files: Readonly<Record<string, string>> = {}) {
    super(files);
    this.rounds = new ScriptedRounds(models.replies);
  }

  modelRound(request: ModelRoundEffectRequest): Promise<ModelReply> {
    return this.rounds.round(request);
  }

  /** Every model round request, in order. */
  get modelRequests(): readonly ModelRoundEffectRequest[] {
    return this.rounds.requests;
  }
}

/** What a model test run gives back. */
export interface ModelRun {
  readonly result: RunResult;
  readonly port: ModelPort;
}

/** Options of a model test run. */
export interface ModelRunOptions extends Omit<RunOptions, "effects" | "catalog"> {
  readonly models?: ScenarioModels;
  /** The roles to bind, instead of every declared role as a scenario binds them. */
  readonly roles?: readonly RunModelRole[];
  readonly files?: Readonly<Record<string, string>>;
  /** Called with the port before the run starts. */
  readonly configure?: (port: ModelPort) => void;
  /** The Host's budget on the run catalog (runvil.config.json's `budget`). */
  readonly hostBudget?: RunBudget;
}

let engine: Promise<Engine> | undefined;

/** Parses `text` and runs it with scripted model rounds and every declared role bound. */
export async function runModelPrompt(
  text: string,
  options: ModelRunOptions = {},
): Promise<ModelRun> {
  engine ??= loadEngine();
  const prompt = await parseForTest(text);
  const { models = {}, roles, files, configure, hostBudget, ...rest } = options;
  const port = new ModelPort(models, files);
  configure?.(port);
  const bound =
    roles ??
    bindScenarioRoles(
      prompt.frontmatter.models.map((role) => role.label),
      models.bind,
    );
  const result = await (await engine).run(prompt, {
    ...rest,
    effects: port,
    catalog: {
      tools: [],
      packs: null,
      preludes: [],
      dropped: [],
      models: bound,
      ...(hostBudget === undefined ? {} : { budget: hostBudget }),
    },
  });
  return { result, port };
}

/** The run's result text; throws with the run result when it did not succeed. */
export function succeeded(run: ModelRun): string | null {
  if (run.result.outcome !== "succeeded") {
    throw new Error(`the run did not succeed: ${JSON.stringify(run.result)}`);
  }
  return run.result.result;
}

/** A whole prompt around one `## Main` section of Lua, with `models:` roles (default writer). */
export function modelPrompt(lua: string, options: { roles?: string; h1?: string } = {}): string {
  const roles = options.roles ?? "  writer: {}";
  const h1 = options.h1 === undefined ? "" : `\`\`\`lua\n${options.h1}\n\`\`\`\n\n`;
  return `---\nname: t\ndescription: t\nrunvil: 0\nmodels:\n${roles}\n---\n\n# T\n\n${h1}## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`;
}
