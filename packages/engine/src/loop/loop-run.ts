import type { RunModelRole } from "@runvil/protocol";
import type { ModelToolCall } from "@runvil/sdk";
import {
  reportCompactionFailed,
  reportCompactionStarted,
  reportCompactionSucceeded,
} from "../compact/compaction-events";
import {
  type CompactionInfo,
  type CompactionReason,
  exhaustionReason,
  nextStep,
  shrinkRefusal,
} from "../compact/compaction-policy";
import { compactorRecords } from "../compact/compactor-result";
import { EngineError, type HostResult } from "../lua";
import { assistantRecord, type MessageRecord, toolRecord } from "../messages/message-record";
import { estimateRequest, recordTokens } from "../models/estimate";
import { roundError, runModelRound } from "../models/model-round";
import type { ModelRole } from "../models/run-models";
import { dispatchCatalogCall } from "../tools/catalog-call";
import { runToolsOf } from "../tools/run-tools";
import {
  reportToolCallFailed,
  reportToolCallStarted,
  reportToolCallSucceeded,
  reportToolResult,
  type ToolCallIdentity,
} from "../tools/tool-events";
import { toolCallFailureMessage } from "../tools/tool-messages";
import { wrapUntrusted } from "../untrusted/envelope";
import type { Entry } from "../walk/entry";
import type { AdvertisedTools, CallRoute } from "./advertised-tools";
import { type CallStep, planCalls } from "./call-plan";
import { assistantToolCallFields } from "./loop-events";
import type { LockHolder } from "./loop-lock";
import {
  EMPTY_LOOP_REPLY_MESSAGE,
  type LoopFunction,
  TOOL_LOOP_EXHAUSTED_MESSAGE,
} from "./loop-texts";
import { type CheckedCall, checkReplyCalls } from "./reply-check";
import { gateCalls } from "./scope-gate";

/** A tool round whose calls are running: the reply's calls, their plan, and the answers so far. */
interface ToolRound {
  readonly turn: number;
  /** The reply's text, the assistant record's content (possibly empty). */
  readonly text: string;
  readonly calls: readonly CheckedCall[];
  readonly routes: readonly CallRoute[];
  readonly steps: readonly CallStep[];
  /** The next step to run. */
  next: number;
  /** Each call's result text, in call order, as it lands. */
  readonly answers: string[];
}

/** The exhaustion a compactor is answering: what the shrink check compares against. */
interface Exhaustion {
  readonly turn: number;
  readonly reason: CompactionReason;
  readonly estimate: number;
}

/** What a loop or compaction does with the compactor's checked result. */
export interface Compacting extends LockHolder {
  /** Which call runs the compactor, as its refusals name it. */
  readonly fn: LoopFunction | "models.compact";
  /** The staged result is in the entry's list staging: check it and replace the list. */
  compacted(): void;
  /** The compactor raised (or its result was refused) with `message`. */
  compactFailed(message: string): void;
}

/** What the Lua driver does next: a host result it reads as `what, a, b, c, d`. */
type Step = HostResult | Promise<HostResult>;

/** The identity of a model's call in its events. */
function identity(turn: number, call: CheckedCall, route: CallRoute | undefined): ToolCallIdentity {
  return {
    turn,
    callId: call.id,
    alias: call.name,
    tool: route?.kind === "catalog" ? route.tool.id : undefined,
    caller: "model",
  };
}

/**
 * One `models.loop` / `handle:loop` call once its checks passed and the section's tool list is
 * rendered (docs/design/loop.md §3–§7): it runs the rounds, the tool rounds' catalog batches
 * and task built-ins, and tells the Lua driver when a local handler or the compactor must run.
 * It holds the chain's loop lock until the driver ends it.
 */
export class LoopRun implements Compacting {
  readonly entry: Entry;
  readonly fn: LoopFunction;
  private readonly role: ModelRole;
  private readonly binding: RunModelRole;
  private readonly advertised: AdvertisedTools;
  private readonly hasCompactor: boolean;
  /** This call's completed rounds (the round cap counts them). */
  private rounds = 0;
  /** The compactions of the round being retried. */
  private compactions = 0;
  private toolRound: ToolRound | undefined;
  /** The call whose local handler runs now. */
  private waiting: number | undefined;
  private exhaustion: Exhaustion | undefined;

  constructor(
    entry: Entry,
    fn: LoopFunction,
    role: ModelRole,
    binding: RunModelRole,
    advertised: AdvertisedTools,
    hasCompactor: boolean,
  ) {
    this.entry = entry;
    this.fn = fn;
    this.role = role;
    this.binding = binding;
    this.advertised = advertised;
    this.hasCompactor = hasCompactor;
  }

  /** What the driver does next: `final`, `local` or `compact` (see loop-impl.lua). */
  step(): Step {
    if (this.waiting !== undefined || this.exhaustion !== undefined) {
      throw new Error("models.loop: the driver stepped before answering");
    }
    return this.toolRound === undefined ? this.request() : this.advance(this.toolRound);
  }

  /** The local call the driver ran answered with `content`. */
  answer(content: string): void {
    const round = this.toolRound;
    const call = this.waiting;
    if (round === undefined || call === undefined)
      throw new Error("models.loop: no local call runs");
    round.answers[call] = content;
    round.next++;
    this.waiting = undefined;
  }

  compacted(): void {
    const exhaustion = this.exhaustion;
    if (exhaustion === undefined) throw new Error("models.loop: no compaction runs");
    const { entry } = this;
    let records: readonly MessageRecord[];
    try {
      records = compactorRecords(this.fn, entry.messages.takeStaged());
    } catch (error) {
      this.compactFailed(error instanceof Error ? error.message : String(error));
      throw error;
    }
    const after = this.estimate(records);
    const refusal = shrinkRefusal(exhaustion.estimate, after, exhaustion.reason);
    if (refusal !== undefined) {
      this.compactFailed(refusal.message);
      throw refusal;
    }
    try {
      entry.messages.replace(records);
    } catch (error) {
      this.compactFailed(error instanceof Error ? error.message : String(error));
      throw error;
    }
    reportCompactionSucceeded(entry, exhaustion.turn, records.length, after);
    this.exhaustion = undefined;
  }

  compactFailed(message: string): void {
    const turn = this.exhaustion?.turn ?? this.entry.tools.rounds + 1;
    reportCompactionFailed(this.entry, turn, message);
  }

  /** The estimate of a request of `records` on this loop's role with its tools. */
  private estimate(records: readonly MessageRecord[]): number {
    return estimateRequest({ system: this.binding.system, records, tools: this.advertised.tools });
  }

  /** One model round of the loop, and what its reply asks for. */
  private async request(): Promise<HostResult> {
    const { entry } = this;
    let completed: Awaited<ReturnType<typeof runModelRound>>;
    try {
      completed = await runModelRound(entry, {
        role: this.role,
        via: "loop",
        // A snapshot: the list's own array grows with later appends, and a port may keep the
        // request (the records themselves are immutable and shared).
        records: entry.messages.records.slice(),
        tools: this.advertised.tools,
        recordTokens: entry.messages.tokens(recordTokens),
      });
    } catch (error) {
      if (error instanceof EngineError && error.kind === "context_exhausted") {
        return this.exhausted(error);
      }
      throw error;
    }
    this.compactions = 0;
    this.rounds++;
    const { turn, reply } = completed;
    if (reply.toolCalls.length === 0) {
      if (reply.text.trim() === "") {
        const empty = new EngineError("empty_model_reply", EMPTY_LOOP_REPLY_MESSAGE, {
          finish_reason: reply.finishReason === "" ? "unknown" : reply.finishReason,
        });
        throw roundError(entry, turn, this.role, empty);
      }
      entry.messages.append(assistantRecord(reply.text));
      return ["final", reply.text];
    }
    return this.toolRoundOf(turn, reply.text, reply.toolCalls);
  }

  /**
   * A context exhaustion: with a compactor and compactions left, the driver runs it (the info
   * it receives); else the exhaustion is raised.
   */
  private exhausted(error: EngineError): HostResult {
    const reason = exhaustionReason(error) ?? "provider";
    const step = nextStep(error, this.compactions, this.hasCompactor);
    if (!step.compact) throw step.error;
    this.compactions = step.attempt;
    const { entry, binding } = this;
    const turn = entry.tools.rounds + 1;
    const records = entry.messages.records;
    const estimate = this.estimate(records);
    this.exhaustion = { turn, reason, estimate };
    reportCompactionStarted(entry, turn, reason, step.attempt, records.length, estimate);
    const info: CompactionInfo = {
      reason,
      estimated_tokens: estimate,
      context_window: binding.contextWindow,
      model: binding.model,
      role: this.role.label,
      turn,
      attempt: step.attempt,
      message: error.message,
    };
    return ["compact", { ...info }];
  }

  /**
   * A reply with calls (loop.md §4): checked whole, reported, gated, capped, then planned; the
   * first steps run at once.
   */
  private toolRoundOf(turn: number, text: string, replyCalls: readonly ModelToolCall[]): Step {
    const { entry } = this;
    const check = checkReplyCalls(replyCalls);
    if (!check.ok) {
      entry.ctx.emit(entry.source, "model_reply_refused", { turn, message: check.message });
      throw roundError(entry, turn, this.role, new EngineError("internal", check.message));
    }
    const { calls } = check;
    const advertised = this.advertised;
    entry.ctx.emit(entry.source, "assistant_tool_calls", {
      turn,
      calls: assistantToolCallFields(
        calls,
        calls.map((call) => advertised.route(call.name)),
      ),
    });
    const gate = gateCalls(
      calls.map((call) => call.name),
      advertised,
      runToolsOf(entry.ctx),
    );
    if (!gate.ok) {
      const refused = calls[gate.index];
      if (refused !== undefined) {
        reportToolCallFailed(entry, identity(turn, refused, undefined), gate.error.message);
      }
      throw gate.error;
    }
    if (this.rounds >= this.binding.maxRounds) {
      throw new EngineError("tool_loop_exhausted", TOOL_LOOP_EXHAUSTED_MESSAGE);
    }
    const round: ToolRound = {
      turn,
      text,
      calls,
      routes: gate.routes,
      steps: planCalls(gate.routes),
      next: 0,
      answers: [],
    };
    this.toolRound = round;
    return this.advance(round);
  }

  /**
   * Runs the round's steps from where it stands: batches and built-ins here, a local call by
   * handing it to the driver. When every call has answered, appends the round's records and
   * asks the model again.
   */
  private advance(round: ToolRound): Step {
    const step = round.steps[round.next];
    if (step === undefined) {
      this.finishRound(round);
      return this.request();
    }
    if (step.kind === "batch") {
      return this.runBatch(round, step.calls).then(() => {
        round.next++;
        return this.advance(round);
      });
    }
    const call = round.calls[step.call];
    const route = round.routes[step.call];
    if (call === undefined || route === undefined)
      throw new Error("models.loop: a step names no call");
    if (route.kind === "builtin") {
      return this.runBuiltin(round, step.call, call).then(() => {
        round.next++;
        return this.advance(round);
      });
    }
    this.waiting = step.call;
    return ["local", call.name, JSON.stringify(call.arguments), call.id, round.turn];
  }

  /**
   * A batch (tools chapter, "Tool-call batches"): every call started in call order before any
   * lands, then each reported in call order once all have landed. A bound tool's failure is the
   * call's answer, wrapped as untrusted whatever the tool's trust, and the loop goes on.
   */
  private async runBatch(round: ToolRound, indices: readonly number[]): Promise<void> {
    const { entry } = this;
    const started = indices.map((index) => {
      const call = round.calls[index];
      const route = round.routes[index];
      if (call === undefined || route?.kind !== "catalog")
        throw new Error("models.loop: a batch call is not a catalog call");
      const outcome = dispatchCatalogCall(entry, {
        tool: route.tool,
        name: call.name,
        arguments: call.arguments,
        caller: "model",
        callId: call.id,
        turn: round.turn,
      });
      return { index, call, route, outcome };
    });
    const outcomes = await Promise.all(started.map((s) => s.outcome));
    for (const [at, { index, call, route }] of started.entries()) {
      const outcome = outcomes[at];
      if (outcome === undefined) continue;
      const id = identity(round.turn, call, route);
      if (outcome.ok) {
        reportToolCallSucceeded(entry, id, outcome.text, outcome.trusted);
        round.answers[index] = outcome.text;
      } else {
        const content = wrapUntrusted(outcome.message, entry.ctx.nonce);
        reportToolCallFailed(entry, id, toolCallFailureMessage(outcome.message));
        reportToolResult(entry, id, content, false);
        round.answers[index] = content;
      }
    }
  }

  /** A task built-in's call, answered in place by the tasks area (loop.md §5). */
  private async runBuiltin(round: ToolRound, index: number, call: CheckedCall): Promise<void> {
    const { entry } = this;
    const port = entry.ctx.taskBuiltins;
    if (port === undefined) throw new Error("models.loop: the run has no task built-ins");
    const id = identity(round.turn, call, undefined);
    reportToolCallStarted(entry, id, call.arguments);
    const { text } = await port.run(entry, {
      name: call.name,
      arguments: call.arguments,
      callId: call.id,
      turn: round.turn,
    });
    reportToolCallSucceeded(entry, id, text, true);
    round.answers[index] = text;
  }

  /** The round's records (loop.md §4.6): the assistant record, then one tool record per call. */
  private finishRound(round: ToolRound): void {
    const records: MessageRecord[] = [assistantRecord(round.text, round.calls)];
    for (const [index, call] of round.calls.entries()) {
      records.push(toolRecord(round.answers[index] ?? "", call.id, call.name));
    }
    this.entry.messages.append(...records);
    this.toolRound = undefined;
  }
}
