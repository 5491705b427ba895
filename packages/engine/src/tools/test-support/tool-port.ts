import type { ToolDispatcher } from "@runvil/harness";
import { type PreparedRun, toolDispatcherFor } from "@runvil/host";
import type {
  ModelRoundEffectRequest,
  ModelRoundOutput,
  RunEventOf,
  ToolCallOutput,
  ToolCallRequest,
} from "@runvil/protocol";
import { type ScenarioReply, ScriptedRounds } from "../../models/test-support/scripted-rounds";
import { MemoryPort } from "../../test-support/memory-port";

/**
 * A MemoryPort that also runs the prepared run's catalog tools, as the CLI's port does: through
 * the Harness's ToolDispatcher over the port's store (schema checks, services, trust), and
 * answers model rounds with the case's scripted replies. Every tool request is kept.
 */
export class ToolPort extends MemoryPort {
  readonly toolRequests: ToolCallRequest[] = [];
  readonly rounds: ScriptedRounds;
  readonly #dispatcher: ToolDispatcher;

  constructor(
    run: PreparedRun,
    options: {
      readonly files?: Readonly<Record<string, string>>;
      readonly replies?: readonly ScenarioReply[];
    } = {},
  ) {
    super(options.files);
    this.#dispatcher = toolDispatcherFor(run, { store: this.store });
    this.rounds = new ScriptedRounds(options.replies);
  }

  modelRound(request: ModelRoundEffectRequest): Promise<ModelRoundOutput> {
    return this.rounds.round(request);
  }

  toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.toolRequests.push(request);
    return this.#dispatcher.call(request);
  }

  /** The tool_result events, in order. */
  toolResults(): RunEventOf<"tool_result">[] {
    return this.events.filter((e): e is RunEventOf<"tool_result"> => e.type === "tool_result");
  }
}
