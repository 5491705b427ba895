import { SerialQueue } from "./serial-queue";

/** What every DirectoryStore of one root directory in this process shares. */
export interface RootState {
  /** Runs the root's operations one at a time, in issue order. */
  readonly queue: SerialQueue;
  /** Bytes of store files under the root, once counted (undefined until the first change). */
  usedBytes: number | undefined;
  /** Whether a store of this root has looked for stale temporary files in this process. */
  swept: boolean;
}

const ROOTS = new Map<string, RootState>();

/**
 * The shared state of the root at the absolute path `key`, made on first use
 * and kept for the life of the process (one small entry per root), so every
 * DirectoryStore of a root queues behind the same operations and counts the
 * same bytes.
 */
export function rootState(key: string): RootState {
  let state = ROOTS.get(key);
  if (state === undefined) {
    state = { queue: new SerialQueue(), usedBytes: undefined, swept: false };
    ROOTS.set(key, state);
  }
  return state;
}
