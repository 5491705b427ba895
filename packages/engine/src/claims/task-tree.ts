/**
 * The run's tasks as a tree, for happens-before (docs/design/determinism.md, "The store claim
 * rule"). Knowledge moves only between a task and its parent: down when the parent starts the
 * task, up when the parent takes its result. Each task counts the spawns and joins it has made;
 * an access is stamped with its task and that count, so whether one access happens before
 * another is a walk up the tree (at most the depth cap, 8, steps on each side).
 */

/** Where an access was made: its task and how many spawns and joins that task had made. */
export interface Stamp {
  readonly task: string;
  readonly at: number;
}

interface TaskNode {
  readonly id: string;
  readonly parent: TaskNode | undefined;
  readonly depth: number;
  /** The parent's count when it started this task. */
  readonly spawnedAt: number;
  /** The parent's count when it took this task's result (undefined: not yet). */
  joinedAt: number | undefined;
  /** Spawns and joins this task has made. */
  count: number;
}

/** The root task's id (the main walk, its calls, the H1 pass). */
export const ROOT_TASK = "0";

/** The task tree of one run. */
export class TaskTree {
  private readonly nodes = new Map<string, TaskNode>();

  constructor() {
    this.nodes.set(ROOT_TASK, {
      id: ROOT_TASK,
      parent: undefined,
      depth: 0,
      spawnedAt: 0,
      joinedAt: undefined,
      count: 0,
    });
  }

  /** How many tasks the tree knows (the root included). */
  get size(): number {
    return this.nodes.size;
  }

  /** `parent` started `child` (tasks.spawn, a fanout arm, the model's `task`): at the call. */
  spawned(parent: string, child: string): void {
    const owner = this.node(parent);
    if (this.nodes.has(child)) throw new Error(`task ${child} was started twice`);
    this.nodes.set(child, {
      id: child,
      parent: owner,
      depth: owner.depth + 1,
      spawnedAt: owner.count,
      joinedAt: undefined,
      count: 0,
    });
    owner.count++;
  }

  /**
   * `parent` took the results of `children` (a join, join_any, await_tasks, the fanout's return,
   * tasks.cancel's return, the end-of-entry wait). A child taken before is left as it was.
   */
  joined(parent: string, children: readonly string[]): void {
    const owner = this.node(parent);
    let any = false;
    for (const id of children) {
      const child = this.nodes.get(id);
      if (child === undefined || child.parent !== owner || child.joinedAt !== undefined) continue;
      child.joinedAt = owner.count;
      any = true;
    }
    if (any) owner.count++;
  }

  /** The stamp of an access `task` makes now. */
  stamp(task: string): Stamp {
    return { task, at: this.node(task).count };
  }

  /**
   * Whether the access stamped `a` happens before an access `task` makes now: program order in
   * one task; else `a`'s task's result reached a common ancestor (every task on the way up was
   * joined) before that ancestor started the branch that leads to `task`, or `a` was made by
   * that ancestor before it started the branch.
   */
  happensBefore(a: Stamp, task: string): boolean {
    if (a.task === task) return true;
    let up = this.node(a.task);
    let down = this.node(task);
    // The last step of each side below the common ancestor.
    let upChild: TaskNode | undefined;
    let downChild: TaskNode | undefined;
    while (up.depth > down.depth) {
      if (up.joinedAt === undefined) return false;
      upChild = up;
      up = up.parent as TaskNode;
    }
    while (down.depth > up.depth) {
      downChild = down;
      down = down.parent as TaskNode;
    }
    while (up !== down) {
      if (up.joinedAt === undefined) return false;
      upChild = up;
      up = up.parent as TaskNode;
      downChild = down;
      down = down.parent as TaskNode;
    }
    // `up` is the common ancestor. When it is `task` itself, its join of upChild is in the past.
    if (downChild === undefined) return true;
    const startedAt = downChild.spawnedAt;
    if (upChild === undefined) return a.at <= startedAt; // a was made by the ancestor itself
    return (upChild.joinedAt as number) < startedAt;
  }

  private node(id: string): TaskNode {
    const node = this.nodes.get(id);
    if (node === undefined) throw new Error(`the task tree knows no task ${id}`);
    return node;
  }
}
