import type { StoreOperation } from "@runvil/protocol";
import type { StoreText } from "@runvil/sdk";
import { compileGlob, type GlobMatcher } from "./glob-match";
import { ROOT_TASK, type Stamp, TaskTree } from "./task-tree";

/** Two concurrent accesses to one path, at least one a change: the run ends as Determinism. */
export interface StoreConflict {
  /** The path both used (for a listing, the path it covers). */
  readonly path: string;
  /** The two task ids, in id order. */
  readonly tasks: readonly [string, string];
}

/** Latest stamp per task. */
type Stamps = Map<string, Stamp>;

/** One path of the store (or a directory on the way to one). */
interface PathNode {
  readonly path: string;
  readonly children: Map<string, PathNode>;
  /** The last change of exactly this path. */
  change: Stamp | undefined;
  /** Reads of exactly this path since that change, latest per task. */
  readonly reads: Stamps;
  /** `list` of this directory (every file under it), latest per task. */
  readonly listings: Stamps;
  /** The latest change strictly below this path, per task. */
  readonly changesBelow: Stamps;
  /** The latest read strictly below this path, per task. */
  readonly readsBelow: Stamps;
}

interface GlobClaim {
  readonly pattern: string;
  readonly matches: GlobMatcher;
  readonly stamps: Stamps;
}

const CHANGES = new Set(["write", "append", "edit", "delete"]);

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A path as a key: its text, or for bytes that are not UTF-8 a form no text path can take. */
export function pathKey(text: StoreText): string {
  if (typeof text === "string") return text;
  try {
    return decoder.decode(text);
  } catch {
    return `\u0000${Array.from(text, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  }
}

function newNode(path: string): PathNode {
  return {
    path,
    children: new Map(),
    change: undefined,
    reads: new Map(),
    listings: new Map(),
    changesBelow: new Map(),
    readsBelow: new Map(),
  };
}

function byId(a: string, b: string): [string, string] {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? -1;
    const y = pb[i] ?? -1;
    if (x !== y) return x < y ? [a, b] : [b, a];
  }
  return [a, b];
}

/**
 * The store claim rule (docs/design/determinism.md): every store operation is checked before
 * it is issued against the accesses of the tasks it is logically concurrent with. Changes
 * (`write`, `append`, `edit`, `delete`) claim a path exclusively; reads (`read`, `exists`) and
 * listings (`list`, `glob`, over every path they cover) share it. A path also overlaps its
 * directories and everything under it (a file there decides whether a directory exists).
 */
export class StoreClaims {
  /** The run's task tree: the tasks area reports spawns and joins to it. */
  readonly tasks = new TaskTree();
  private readonly root = newNode("");
  private readonly globs = new Map<string, GlobClaim>();
  /** Every path that had a change, for globs. */
  private readonly changed: PathNode[] = [];

  /**
   * Checks `operation` by `task` against the accesses made so far and records it: the first
   * conflict found, or undefined (recorded) when there is none.
   */
  claim(task: string, operation: StoreOperation): StoreConflict | undefined {
    // Before the run's first task, an access happens before everything after it (every task
    // starts later), so it can never conflict and is not recorded: a run without tasks pays
    // nothing here.
    if (task === ROOT_TASK && this.tasks.size === 1) return undefined;
    const stamp = this.tasks.stamp(task);
    switch (operation.op) {
      case "list":
        return this.list(
          task,
          stamp,
          operation.prefix === undefined ? "" : pathKey(operation.prefix),
        );
      case "glob":
        return this.glob(task, stamp, pathKey(operation.pattern));
      default: {
        const path = pathKey(operation.path);
        return CHANGES.has(operation.op)
          ? this.change(task, stamp, path)
          : this.read(task, stamp, path);
      }
    }
  }

  private change(task: string, stamp: Stamp, path: string): StoreConflict | undefined {
    const chain = this.chainOf(path);
    const node = chain[chain.length - 1] as PathNode;
    const conflict =
      this.against(task, path, node.change) ??
      this.againstAll(task, path, node.reads) ??
      this.againstAll(task, path, node.changesBelow) ??
      this.againstAll(task, path, node.readsBelow) ??
      this.againstAncestors(task, path, chain, true) ??
      this.againstGlobs(task, path);
    if (conflict !== undefined) return conflict;
    if (node.change === undefined) this.changed.push(node);
    node.change = stamp;
    node.reads.clear();
    for (let i = 0; i < chain.length - 1; i++) (chain[i] as PathNode).changesBelow.set(task, stamp);
    return undefined;
  }

  private read(task: string, stamp: Stamp, path: string): StoreConflict | undefined {
    const chain = this.chainOf(path);
    const node = chain[chain.length - 1] as PathNode;
    const conflict =
      this.against(task, path, node.change) ??
      this.againstAll(task, path, node.changesBelow) ??
      this.againstAncestors(task, path, chain, false);
    if (conflict !== undefined) return conflict;
    node.reads.set(task, stamp);
    for (let i = 0; i < chain.length - 1; i++) (chain[i] as PathNode).readsBelow.set(task, stamp);
    return undefined;
  }

  private list(task: string, stamp: Stamp, path: string): StoreConflict | undefined {
    const chain = this.chainOf(path);
    const node = chain[chain.length - 1] as PathNode;
    const conflict =
      this.against(task, path, node.change) ??
      this.againstAll(task, path, node.changesBelow) ??
      this.againstAncestors(task, path, chain, false);
    if (conflict !== undefined) return conflict;
    node.listings.set(task, stamp);
    return undefined;
  }

  private glob(task: string, stamp: Stamp, pattern: string): StoreConflict | undefined {
    let claim = this.globs.get(pattern);
    const matches = claim?.matches ?? compileGlob(pattern);
    for (const node of this.changed) {
      if (!matches(node.path)) continue;
      const conflict = this.against(task, node.path, node.change);
      if (conflict !== undefined) return conflict;
    }
    if (claim === undefined) {
      claim = { pattern, matches, stamps: new Map() };
      this.globs.set(pattern, claim);
    }
    claim.stamps.set(task, stamp);
    return undefined;
  }

  /** The nodes from the root to `path` (made as needed); `""` is the root alone. */
  private chainOf(path: string): PathNode[] {
    const chain = [this.root];
    if (path === "") return chain;
    let node = this.root;
    let prefix = "";
    for (const name of path.split("/")) {
      prefix = prefix === "" ? name : `${prefix}/${name}`;
      let child = node.children.get(name);
      if (child === undefined) {
        child = newNode(prefix);
        node.children.set(name, child);
      }
      chain.push(child);
      node = child;
    }
    return chain;
  }

  /** Every ancestor's own accesses (changes; and, for a change, its reads and listings). */
  private againstAncestors(
    task: string,
    path: string,
    chain: readonly PathNode[],
    isChange: boolean,
  ): StoreConflict | undefined {
    for (let i = 0; i < chain.length - 1; i++) {
      const node = chain[i] as PathNode;
      const conflict =
        this.against(task, path, node.change) ??
        (isChange ? this.againstAll(task, path, node.reads) : undefined) ??
        (isChange ? this.againstAll(task, path, node.listings) : undefined);
      if (conflict !== undefined) return conflict;
    }
    if (isChange) {
      const own = chain[chain.length - 1] as PathNode;
      return this.againstAll(task, path, own.listings);
    }
    return undefined;
  }

  private againstGlobs(task: string, path: string): StoreConflict | undefined {
    for (const claim of this.globs.values()) {
      if (!claim.matches(path)) continue;
      const conflict = this.againstAll(task, path, claim.stamps);
      if (conflict !== undefined) return conflict;
    }
    return undefined;
  }

  private againstAll(task: string, path: string, stamps: Stamps): StoreConflict | undefined {
    for (const stamp of stamps.values()) {
      const conflict = this.against(task, path, stamp);
      if (conflict !== undefined) return conflict;
    }
    return undefined;
  }

  private against(task: string, path: string, stamp: Stamp | undefined): StoreConflict | undefined {
    if (stamp === undefined || this.tasks.happensBefore(stamp, task)) return undefined;
    return { path, tasks: byId(stamp.task, task) };
  }
}
