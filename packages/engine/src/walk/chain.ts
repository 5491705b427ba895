import type { Scope } from "../scope/scope";

/** The nesting cap of `call`: a chain deeper than this cannot be opened. */
export const CALL_DEPTH_CAP = 8;

/** The refusal of a call past the cap (kind lua; uncaught it ends the run as Quota). */
export const CALL_RECURSION_MESSAGE = `call recursion exceeded cap of ${CALL_DEPTH_CAP}`;

/**
 * A chain: a walk with its own entries. It numbers its section entries (`{id}.0`, `{id}.1`, …)
 * and the child chains it opens (`{id}.0`, `{id}.1`, …) with two chain-local counters, so ids
 * never depend on how chains interleave. It runs in one scope (scope/scope.ts), which it gets
 * from the chain that opens it and never from anywhere else: the root chain the run's root
 * scope, a `call` chain its opener's (its failure is the caller's), a task chain or a fanout
 * arm a fork of its opener's. So an ending reaches exactly the chains of its scope and of the
 * scope's descendants (docs/design/scopes.md).
 */
export class Chain {
  /** The chain id: `0` for the root chain, `{parent}.{n}` for a child. */
  readonly id: string;
  /** Nesting depth: 0 for the root chain, the opener's depth + 1 for a child. */
  readonly depth: number;
  /** The section fall-through cannot leave (null: the whole prompt). */
  readonly container: number | null;
  /** The id of the task the chain runs in (`sys.taskid`): `0` on the root chain and in calls. */
  readonly taskId: string;
  /**
   * The argv its entries see, as JSON text, when it is not the run's: a chain the H1 pass calls
   * sees argv as the H1 pass has repaired it so far (frozen), and passes it on to its children.
   */
  readonly argvJson: string | undefined;
  /** The scope the chain runs in: its entries' VMs, signals and ending. */
  readonly scope: Scope;
  /** A task chain's `item` as JSON text (undefined: not a task chain, no `item` global). */
  readonly itemJson: string | undefined;
  /** The `sys.index` of a task chain's first entry, when its spawn gave one. */
  readonly index: number | undefined;
  private entries = 0;
  private children = 0;

  private constructor(
    id: string,
    depth: number,
    container: number | null,
    taskId: string,
    argvJson: string | undefined,
    scope: Scope,
    itemJson?: string,
    index?: number,
  ) {
    this.itemJson = itemJson;
    this.index = index;
    this.id = id;
    this.depth = depth;
    this.container = container;
    this.taskId = taskId;
    this.argvJson = argvJson;
    this.scope = scope;
  }

  /** The root chain `0` in the run's root scope: the H1 pass (entry `0.0`) and the main walk. */
  static root(scope: Scope): Chain {
    if (!scope.isRoot) throw new Error("the root chain runs in the root scope");
    return new Chain("0", 0, null, "0", undefined, scope);
  }

  /** Takes the next entry id (`{id}.{n}`). */
  nextEntryId(): string {
    return `${this.id}.${this.entries++}`;
  }

  /** How many entries the chain has taken. */
  get entryCount(): number {
    return this.entries;
  }

  /**
   * Opens the next child chain for a `call` (the counter is shared with tasks and fanout arms):
   * the child inherits the task id and the scope, and has `container` as its container.
   * `argvJson` overrides the argv its entries see (else it inherits this chain's).
   */
  openCallChain(container: number | null, argvJson?: string): Chain {
    return new Chain(
      `${this.id}.${this.children++}`,
      this.depth + 1,
      container,
      this.taskId,
      argvJson ?? this.argvJson,
      this.scope,
    );
  }

  /**
   * Opens the next child chain for a task (tasks.spawn; the counter is shared with `call`): its
   * id is the task id (`sys.taskid`), it runs in a fork of this chain's scope (its ending is the
   * task's outcome, not this chain's), with `container` as its container, `itemJson` as its
   * `item`, and `index` as the `sys.index` of its first entry.
   */
  openTaskChain(container: number | null, itemJson: string, index?: number): Chain {
    const id = `${this.id}.${this.children++}`;
    return new Chain(
      id,
      this.depth + 1,
      container,
      id,
      this.argvJson,
      this.scope.fork(),
      itemJson,
      index,
    );
  }

  /** The `sys.index` of the entry `entryId` of this chain: only its first entry has one. */
  indexOf(entryId: string): number | undefined {
    return entryId === `${this.id}.0` ? this.index : undefined;
  }

  /** Whether a call from this chain would pass the depth cap. */
  get atCallCap(): boolean {
    return this.depth + 1 > CALL_DEPTH_CAP;
  }
}
