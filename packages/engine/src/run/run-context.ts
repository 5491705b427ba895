import type { Prompt } from "@runvil/parser";
import type { EventFields, RunError, RunEvent, RunEventType } from "@runvil/protocol";
import { toLuaJsonObject } from "../json/convert";
import {
  type BlockLocator,
  encodeJsonValue,
  type LuaJsonObject,
  type LuaRuntime,
  type LuaVm,
  type LuaVmFactory,
} from "../lua";
import { runNonce } from "../untrusted/nonce";
import { SectionTree } from "../walk/section-tree";
import type { ResolvedRunOptions } from "./run-options";

/** Where an event comes from: its chain, entry and section. */
export interface EventSource {
  readonly chain: string;
  readonly entry: string | null;
  readonly section: string;
}

/**
 * How the run ended early: the first failure, a cancel, or a stop (docs/design/stop.md). The
 * first ending wins, except that a cancel replaces a stop.
 */
export type RunEnding =
  | { readonly kind: "failed"; readonly error: RunError }
  | { readonly kind: "cancelled" }
  | { readonly kind: "stopped" };

const STOPPED: RunEnding = { kind: "stopped" };

/** The reason `RunContext.stopAbort` aborts with: an AbortError naming the stop. */
export function runStoppedReason(): DOMException {
  return new DOMException("the run was stopped", "AbortError");
}

/**
 * Thrown through the chains once the run has an ending (RunContext.ending): every chain
 * unwinds, tearing its VM down on the way, and the run returns the ending.
 */
export class RunStop extends Error {
  constructor() {
    super("the run has ended");
    this.name = "RunStop";
  }
}

/**
 * One run's shared state: the prompt and its section tree, the resolved options, the nonce,
 * the event sequence, the live VMs, and how the run ends.
 */
export class RunContext {
  readonly prompt: Prompt;
  readonly tree: SectionTree;
  readonly options: ResolvedRunOptions;
  readonly factory: LuaVmFactory;
  readonly runtime: LuaRuntime;
  readonly nonce: string;
  /** Names every block of the prompt by its first line, for error messages. */
  readonly locate: BlockLocator;
  /** Aborted when the run is cancelled or fails; every effect request carries its signal. */
  readonly abort = new AbortController();
  /**
   * Aborted when the run is stopped (not on a cancel): tool call requests carry its signal as
   * `stopSignal`, and the Harness stops every call whose tool does not survive a stop.
   */
  readonly stopAbort = new AbortController();
  private argvValue: LuaJsonObject = {};
  private argvText = "{}";
  /** `var` as last read back on the root chain (the run result's `var`). */
  rootVar: LuaJsonObject = {};
  /** The `ui()` snapshot in the Lua side's JSON model, or undefined without one. */
  readonly uiSnapshot: LuaJsonObject | undefined;
  private seq = 0;
  private readonly live = new Set<LuaVm>();
  private endingValue: RunEnding | undefined;
  /** The cancel check every VM polls: the run's own, plus the stop sources when it has any. */
  private readonly vmShouldCancel: (() => boolean) | undefined;

  constructor(
    prompt: Prompt,
    options: ResolvedRunOptions,
    factory: LuaVmFactory,
    runtime: LuaRuntime,
  ) {
    this.prompt = prompt;
    this.tree = new SectionTree(prompt);
    this.options = options;
    this.factory = factory;
    this.runtime = runtime;
    this.nonce = runNonce(options.seed);
    this.uiSnapshot = options.ui === undefined ? undefined : toLuaJsonObject(options.ui);
    const labels = new Map(prompt.blocks.map((block) => [block.firstLine, block.label]));
    this.locate = (firstLine) => labels.get(firstLine);
    const stoppable =
      options.stopSignal !== undefined ||
      options.stopFlag !== undefined ||
      options.shouldStop !== undefined;
    this.vmShouldCancel = stoppable ? () => this.vmMustStop() : options.shouldCancel;
  }

  /** The run's argv: derived before the H1 pass, read back and frozen after it. */
  get argv(): LuaJsonObject {
    return this.argvValue;
  }

  set argv(value: LuaJsonObject) {
    this.argvValue = value;
    this.argvText = encodeJsonValue(value);
  }

  /** The run's argv as JSON text (json.encode's rules), what every section VM decodes. */
  get argvJson(): string {
    return this.argvText;
  }

  /** How the run ended early, if it has. */
  get ending(): RunEnding | undefined {
    return this.endingValue;
  }

  /** The number of events emitted so far (the last `seq`). */
  get eventCount(): number {
    return this.seq;
  }

  /** Emits one event through the EffectPort, numbering it. */
  emit<T extends RunEventType>(source: EventSource, type: T, fields: EventFields[T]): void {
    const event = {
      seq: ++this.seq,
      type,
      execution: this.options.execution,
      chain: source.chain,
      entry: source.entry,
      section: source.section,
      ...fields,
    } as RunEvent;
    this.options.effects.emit(event);
  }

  /**
   * A fresh section VM with the run's limits and cancel sources, tracked until closed. A run
   * that can be stopped gives every VM a check that also says yes once the run has an ending or
   * a stop source asks to stop: the count hook then stops a running block, and a block resuming
   * after a wait that outlived a stop (a tool that survives a stop) ends before its next
   * instruction (docs/design/stop.md).
   */
  createVm(): LuaVm {
    const { luaMemoryBytes, cancelFlag, cancelFlagIndex } = this.options;
    const shouldCancel = this.vmShouldCancel;
    const vm = this.factory.create({
      ...(luaMemoryBytes === undefined ? {} : { luaMemoryBytes }),
      ...(cancelFlag === undefined ? {} : { cancelFlag, cancelFlagIndex }),
      ...(shouldCancel === undefined ? {} : { shouldCancel }),
    });
    this.live.add(vm);
    if (this.endingValue !== undefined) vm.cancel();
    return vm;
  }

  /** Closes a VM made by createVm. */
  closeVm(vm: LuaVm): void {
    this.live.delete(vm);
    vm.close();
  }

  /**
   * Records how the run ends (the first ending wins; a cancel also replaces a stop), aborts the
   * pending effects and cancels every live VM, so every waiting or running block stops. A stop
   * goes through {@link requestStop} instead.
   */
  end(ending: RunEnding): void {
    const current = this.endingValue;
    if (current !== undefined && !(current.kind === "stopped" && ending.kind === "cancelled")) {
      return;
    }
    if (ending.kind === "stopped") {
      this.requestStop();
      return;
    }
    this.endingValue = ending;
    this.abort.abort();
    for (const vm of this.live) vm.cancel();
  }

  /**
   * Stops the run (docs/design/stop.md) unless it already has an ending: nothing new starts,
   * the stop signal of tool call requests aborts (the Harness stops every call whose tool does
   * not survive a stop), and no VM is cancelled here: each waiting block ends when its wait
   * settles, before it runs another instruction, so a surviving call's answer is still
   * recorded.
   */
  requestStop(): void {
    if (this.endingValue !== undefined) return;
    this.endingValue = STOPPED;
    this.stopAbort.abort(runStoppedReason());
  }

  /**
   * Whether the run must stop now: it already has an ending, or a cancel source asks to cancel
   * or a stop source to stop (which then becomes the ending). A cancel source is still polled
   * while the run is stopping (a cancel replaces the stop).
   */
  shouldStop(): boolean {
    const ending = this.endingValue;
    if (ending === undefined || ending.kind === "stopped") {
      if (this.cancelRequested()) this.end({ kind: "cancelled" });
      else if (ending === undefined && this.stopRequested()) this.requestStop();
    }
    return this.endingValue !== undefined;
  }

  /** Throws RunStop when the run must stop (see shouldStop). */
  checkStop(): void {
    if (this.shouldStop()) throw new RunStop();
  }

  /**
   * The VMs' check (count hook, before every resume) in a run that can be stopped: the run's
   * own shouldCancel, then whether the run has an ending or a stop source asks to stop. It only
   * reads: the Engine records the stop when it next polls (RunContext.shouldStop).
   */
  private vmMustStop(): boolean {
    if (this.options.shouldCancel?.() === true) return true;
    return this.endingValue !== undefined || this.stopRequested();
  }

  private stopRequested(): boolean {
    const { stopFlag, stopFlagIndex, shouldStop, stopSignal } = this.options;
    if (stopSignal?.aborted === true) return true;
    if (stopFlag !== undefined && Atomics.load(stopFlag, stopFlagIndex) !== 0) return true;
    if (shouldStop === undefined) return false;
    try {
      return shouldStop();
    } catch {
      return true;
    }
  }

  private cancelRequested(): boolean {
    const { cancelFlag, cancelFlagIndex, shouldCancel, signal } = this.options;
    if (signal?.aborted === true) return true;
    if (cancelFlag !== undefined && Atomics.load(cancelFlag, cancelFlagIndex) !== 0) return true;
    if (shouldCancel === undefined) return false;
    try {
      return shouldCancel();
    } catch {
      return true;
    }
  }
}
