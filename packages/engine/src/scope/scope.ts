import type { RunError } from "@runvil/protocol";
import type { LuaVm, LuaVmFactory } from "../lua";

/**
 * How a scope ended early: the first failure, a cancel, or a stop (docs/design/stop.md). The
 * first ending wins, except that a cancel replaces a stop. A scope whose chain ends normally has
 * none.
 */
export type ScopeEnding =
  | { readonly kind: "failed"; readonly error: RunError }
  | { readonly kind: "cancelled" }
  | { readonly kind: "stopped" };

/** The endings {@link Scope.end} records: a failure or a cancel (a stop is requestStop's). */
export type ScopeEnd = Exclude<ScopeEnding, { readonly kind: "stopped" }>;

const CANCELLED: ScopeEnd = { kind: "cancelled" };
const STOPPED: ScopeEnding = { kind: "stopped" };

/** The reason a scope's `stopSignal` aborts with: an AbortError naming the stop. */
function runStoppedReason(): DOMException {
  return new DOMException("the run was stopped", "AbortError");
}

/**
 * The outside sources a scope tree answers to and the options its VMs are made with: the
 * fields of ResolvedRunOptions the tree reads (docs/design/cancellation.md, stop.md). Only the
 * root scope acts on them; its ending then reaches every descendant.
 */
export interface ScopeSources {
  /** The Lua memory limit of every VM (undefined: the default). */
  readonly luaMemoryBytes: number | undefined;
  /** A cancel flag another thread sets; every VM's count hook reads it. */
  readonly cancelFlag: Int32Array | undefined;
  readonly cancelFlagIndex: number;
  /** An in-thread cancel check, polled by every VM's count hook and by the Engine. */
  readonly shouldCancel: (() => boolean) | undefined;
  /** Cancels the root scope when aborted. */
  readonly signal: AbortSignal | undefined;
  /** A stop flag another thread sets. */
  readonly stopFlag: Int32Array | undefined;
  readonly stopFlagIndex: number;
  /** An in-thread stop check. */
  readonly shouldStop: (() => boolean) | undefined;
  /** Stops the root scope when aborted. */
  readonly stopSignal: AbortSignal | undefined;
}

/**
 * Thrown through a scope's chains once the scope has an ending (Scope.checkStop): every chain
 * of the scope unwinds, tearing its VM down on the way, up to whoever owns the scope (the run
 * for the root; the task for a child), which reads `scope.ending`.
 */
export class ScopeEnded extends Error {
  /** The scope that ended. */
  readonly scope: Scope;

  constructor(scope: Scope) {
    super("the scope has ended");
    this.name = "ScopeEnded";
    this.scope = scope;
  }
}

/** What every scope of one tree shares: the VM factory, the run's sources, the root. */
class ScopeTree {
  readonly factory: LuaVmFactory;
  readonly sources: ScopeSources;
  /** Whether a stop can come: a stop source exists, so every VM gets the scope's check. */
  readonly stoppable: boolean;
  /**
   * The shared flags that alone can turn the VMs' check true while Lua runs (lua package,
   * `shouldCancelFlags`): the stop flag, when the tree has no in-thread check (`shouldCancel`,
   * `shouldStop`: deadlines must be polled). Everything else the check reads changes in
   * JavaScript on this thread: a scope's ending (which also cancels its VMs) and the stop
   * signal, both seen before every resume. Undefined when the VMs must poll.
   */
  readonly vmCheckFlags: readonly { flag: Int32Array; index: number }[] | undefined;
  readonly detach: () => void;
  root!: Scope;

  constructor(factory: LuaVmFactory, sources: ScopeSources) {
    this.factory = factory;
    this.sources = sources;
    this.stoppable =
      sources.stopSignal !== undefined ||
      sources.stopFlag !== undefined ||
      sources.shouldStop !== undefined;
    const polled = sources.shouldCancel !== undefined || sources.shouldStop !== undefined;
    const { stopFlag, stopFlagIndex } = sources;
    this.vmCheckFlags =
      !this.stoppable || polled
        ? undefined
        : stopFlag === undefined
          ? []
          : [{ flag: stopFlag, index: stopFlagIndex }];
    const onAbort = (): void => this.root.end(CANCELLED);
    const onStop = (): void => this.root.requestStop();
    sources.signal?.addEventListener("abort", onAbort, { once: true });
    sources.stopSignal?.addEventListener("abort", onStop, { once: true });
    this.detach = () => {
      sources.signal?.removeEventListener("abort", onAbort);
      sources.stopSignal?.removeEventListener("abort", onStop);
    };
  }

  /**
   * Records on the root what the sources ask for now: a cancel source is still polled while the
   * root is stopping (a cancel replaces the stop); a stop source only while it has no ending.
   */
  poll(): void {
    const ending = this.root.ending;
    if (ending !== undefined && ending.kind !== "stopped") return;
    if (this.cancelRequested()) this.root.end(CANCELLED);
    else if (ending === undefined && this.stopRequested()) this.root.requestStop();
  }

  stopRequested(): boolean {
    const { stopFlag, stopFlagIndex, shouldStop, stopSignal } = this.sources;
    if (stopSignal?.aborted === true) return true;
    if (stopFlag !== undefined && Atomics.load(stopFlag, stopFlagIndex) !== 0) return true;
    return asked(shouldStop);
  }

  private cancelRequested(): boolean {
    const { cancelFlag, cancelFlagIndex, shouldCancel, signal } = this.sources;
    if (signal?.aborted === true) return true;
    if (cancelFlag !== undefined && Atomics.load(cancelFlag, cancelFlagIndex) !== 0) return true;
    return asked(shouldCancel);
  }
}

/** Whether an in-thread check asks (one that throws asks). */
function asked(check: (() => boolean) | undefined): boolean {
  if (check === undefined) return false;
  try {
    return check();
  } catch {
    return true;
  }
}

/**
 * A lifetime in the run: it owns a cancel signal, a stop signal, its live VMs and its ending
 * (docs/design/scopes.md). Scopes form a tree whose root is the run's.
 *
 * The invariant, by construction: an ending reaches exactly the work of its scope and of the
 * scope's descendants. Every chain runs in one scope, which it gets from the chain that opens
 * it (walk/chain.ts: the root chain the root scope, a `call` chain its opener's scope, a task
 * chain or fanout arm a {@link fork} of it); every VM is made by a scope ({@link createVm}); and
 * every effect request carries the `signal` and `stopSignal` of the scope of the entry that
 * asks. The only way to a scope is {@link Scope.root} (one per run) or {@link fork}.
 *
 * - {@link end} records a failure or a cancel: `signal` aborts, every live VM is cancelled, and
 *   every open descendant ends as cancelled. The parent is not touched: a child's ending is its
 *   owner's to read (a task's outcome).
 * - {@link requestStop} records a stop: `stopSignal` aborts, no VM is cancelled (each block
 *   ends when its wait settles, through the VMs' check), every open descendant stops too.
 * - The run's sources (ScopeSources) act on the root alone; the root's ending ends everything.
 */
export class Scope {
  private readonly tree: ScopeTree;
  private readonly parent: Scope | undefined;
  private readonly children = new Set<Scope>();
  private readonly live = new Set<LuaVm>();
  private readonly abort = new AbortController();
  private readonly stopAbort = new AbortController();
  private endingValue: ScopeEnding | undefined;
  private closedValue = false;
  /** The cancel check every VM of this scope polls (count hook, before every resume). */
  private readonly vmShouldCancel: (() => boolean) | undefined;

  private constructor(tree: ScopeTree, parent: Scope | undefined) {
    this.tree = tree;
    this.parent = parent;
    this.vmShouldCancel = tree.stoppable ? () => this.vmMustStop() : tree.sources.shouldCancel;
  }

  /**
   * The root scope of a run: its VMs are made by `factory` with the sources' limits and cancel
   * sources, `sources.signal` cancels it and `sources.stopSignal` stops it until it is closed.
   */
  static root(factory: LuaVmFactory, sources: ScopeSources): Scope {
    const tree = new ScopeTree(factory, sources);
    tree.root = new Scope(tree, undefined);
    return tree.root;
  }

  /**
   * Forks a child scope (a task chain, a fanout arm): it ends when this scope ends, and its own
   * ending does not reach this scope. A child forked from a scope that has ended is born ended
   * (cancelled, or stopped), so nothing starts in it. Throws once this scope is closed.
   */
  fork(): Scope {
    if (this.closedValue) throw new Error("a closed scope cannot fork");
    const child = new Scope(this.tree, this);
    this.children.add(child);
    const ending = this.endingValue;
    if (ending?.kind === "stopped") child.requestStop();
    else if (ending !== undefined) child.end(CANCELLED);
    return child;
  }

  /** Aborted when the scope ends with a failure or a cancel; every effect request carries it. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /**
   * Aborted when the scope is stopped (not on a cancel): tool call requests carry it as
   * `stopSignal`, and the Harness stops every call whose tool does not survive a stop.
   */
  get stopSignal(): AbortSignal {
    return this.stopAbort.signal;
  }

  /** How the scope ended early, if it has (also after close). */
  get ending(): ScopeEnding | undefined {
    return this.endingValue;
  }

  /** Whether {@link close} has run. */
  get closed(): boolean {
    return this.closedValue;
  }

  /** Whether this is the run's root scope. */
  get isRoot(): boolean {
    return this.parent === undefined;
  }

  /** The run's root scope, whose ending is the run's (a Determinism failure ends it from anywhere). */
  get root(): Scope {
    return this.tree.root;
  }

  /** The VMs made by this scope and not yet closed. */
  get liveVmCount(): number {
    return this.live.size;
  }

  /**
   * A fresh section VM with the run's limits and cancel sources, tracked until closed. In a
   * tree that can be stopped every VM gets a check that also says yes once its scope has an
   * ending or a stop source asks to stop: the count hook then stops a running block, and a
   * block resuming after a wait that outlived a stop (a tool that survives a stop) ends before
   * its next instruction (docs/design/stop.md). A VM made after the scope ended (or stopped) is
   * cancelled. Throws once the scope is closed.
   */
  createVm(): LuaVm {
    if (this.closedValue) throw new Error("a closed scope cannot create a VM");
    const { luaMemoryBytes, cancelFlag, cancelFlagIndex } = this.tree.sources;
    const shouldCancel = this.vmShouldCancel;
    const shouldCancelFlags = this.tree.vmCheckFlags;
    const vm = this.tree.factory.create({
      ...(luaMemoryBytes === undefined ? {} : { luaMemoryBytes }),
      ...(cancelFlag === undefined ? {} : { cancelFlag, cancelFlagIndex }),
      ...(shouldCancel === undefined ? {} : { shouldCancel }),
      ...(shouldCancel === undefined || shouldCancelFlags === undefined
        ? {}
        : { shouldCancelFlags }),
    });
    this.live.add(vm);
    if (this.endingValue !== undefined) vm.cancel();
    return vm;
  }

  /** Closes a VM made by {@link createVm}. */
  closeVm(vm: LuaVm): void {
    this.live.delete(vm);
    vm.close();
  }

  /**
   * Records a failure or a cancel (the first ending wins; a cancel also replaces a stop):
   * aborts `signal`, cancels every live VM, so every waiting or running block of the scope
   * stops, and ends every open descendant as cancelled. Does nothing once closed.
   */
  end(ending: ScopeEnd): void {
    if (this.closedValue) return;
    const current = this.endingValue;
    if (current !== undefined && !(current.kind === "stopped" && ending.kind === "cancelled")) {
      return;
    }
    this.endingValue = ending;
    this.abort.abort();
    for (const vm of this.live) vm.cancel();
    for (const child of this.children) child.end(CANCELLED);
  }

  /**
   * Stops the scope (docs/design/stop.md) unless it already has an ending: nothing new starts
   * in it, `stopSignal` aborts, and every open descendant stops too. No VM is cancelled: each
   * waiting block ends when its wait settles, before it runs another instruction, so a
   * surviving call's answer is still recorded. Throws in a tree without a stop source (its VMs
   * have no check that would end those blocks). Does nothing once closed.
   */
  requestStop(): void {
    if (!this.tree.stoppable) throw new Error("a scope tree without a stop source cannot stop");
    if (this.closedValue || this.endingValue !== undefined) return;
    this.endingValue = STOPPED;
    this.stopAbort.abort(runStoppedReason());
    for (const child of this.children) child.requestStop();
  }

  /**
   * Whether the scope must stop now: the run's sources are polled (a cancel or stop they ask
   * for is recorded on the root and reaches every descendant), then whether this scope has an
   * ending.
   */
  shouldStop(): boolean {
    this.tree.poll();
    return this.endingValue !== undefined;
  }

  /** Throws ScopeEnded when the scope must stop (see shouldStop). */
  checkStop(): void {
    if (this.shouldStop()) throw new ScopeEnded(this);
  }

  /**
   * Closes the scope once its own chain is done: its ending is final (a later end or stop does
   * nothing), it leaves its parent, and every child still open ends as cancelled and leaves it
   * (nothing outlives its scope). Closing the root also stops listening to the run's signals.
   * Throws while a VM of the scope is open. Idempotent.
   */
  close(): void {
    if (this.closedValue) return;
    if (this.live.size > 0) {
      throw new Error(`a scope closes after its VMs: ${this.live.size} still open`);
    }
    for (const child of this.children) child.end(CANCELLED);
    this.children.clear();
    this.closedValue = true;
    this.parent?.children.delete(this);
    if (this.parent === undefined) this.tree.detach();
  }

  /**
   * The VMs' check in a tree that can be stopped: the run's own shouldCancel, then whether the
   * scope has an ending or a stop source asks to stop. It only reads: the Engine records the
   * stop when it next polls (shouldStop).
   */
  private vmMustStop(): boolean {
    if (this.tree.sources.shouldCancel?.() === true) return true;
    return this.endingValue !== undefined || this.tree.stopRequested();
  }
}
