import type { Chain } from "../walk/chain";
import type { Entry } from "../walk/entry";

/** A loop or a compaction that holds its chain's loop lock. */
export interface LockHolder {
  /** The entry it runs in. */
  readonly entry: Entry;
}

const holders = new WeakMap<Chain, LockHolder>();

/**
 * What runs under the chain's loop lock now (docs/design/loop.md §1.3: one `models.loop` at a
 * time per chain; `models.compact` takes the same lock). Loops of different chains run freely.
 */
export function lockHolder(chain: Chain): LockHolder | undefined {
  return holders.get(chain);
}

/** Takes the chain's loop lock for `holder` (the caller checked it was free). */
export function takeLoopLock(holder: LockHolder): void {
  const chain = holder.entry.chain;
  if (holders.has(chain)) throw new Error(`chain ${chain.id} already runs a loop`);
  holders.set(chain, holder);
}

/** Releases the lock `entry`'s loop or compaction holds, if it holds one. */
export function releaseLoopLock(entry: Entry): void {
  if (holders.get(entry.chain)?.entry === entry) holders.delete(entry.chain);
}
