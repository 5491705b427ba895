import type { EngineError, LuaJsonObject } from "../lua";
import type { Entry } from "../walk/entry";
import { type ArmEntry, armEntryOf } from "./arm-outcome";

/** What a fanout dispatches: the target and the members as JSON text, in collection order. */
export interface FanoutRequest {
  readonly section: number;
  readonly target: string;
  readonly members: readonly string[];
  readonly startVar: LuaJsonObject;
}

/**
 * Runs a fanout's arms (docs/design/fanout.md, Dispatch and Failure policy): every arm id is
 * taken at once in collection order, the arms start as the entry's concurrency limit allows,
 * and the call waits for every arm. The first authoring failure by position wins: when arm `i`
 * fails that way the arms after it are cancelled and the ones before it awaited; the fanout then
 * throws that arm's error. Otherwise the entries, in collection order.
 */
export async function runFanout(entry: Entry, request: FanoutRequest): Promise<ArmEntry[]> {
  const { section, target, members, startVar } = request;
  const container = entry.ctx.tree.parentOf(section);
  const arms = members.map((itemJson, i) =>
    entry.taskSet.startArm({
      section,
      target,
      container,
      itemJson,
      index: i + 1,
      startVar,
    }),
  );
  const entries: (ArmEntry | undefined)[] = new Array(arms.length);
  const raised: (EngineError | undefined)[] = new Array(arms.length);
  let lowest = arms.length;
  await Promise.all(
    arms.map(async (arm, i) => {
      const outcome = await arm.finished;
      if (i > lowest) return; // cancelled by a lower arm's failure: its entry is never read
      const made = armEntryOf(outcome);
      if ("entry" in made) {
        entries[i] = made.entry;
        return;
      }
      raised[i] = made.raise;
      for (let j = i + 1; j < lowest; j++) entry.taskSet.cancelArm((arms[j] as { id: string }).id);
      lowest = i;
    }),
  );
  entry.taskSet.takeArms(arms.map((arm) => arm.id));
  const failure = raised[lowest];
  if (failure !== undefined) throw failure;
  return entries.map((e) => {
    if (e === undefined) throw new Error("a fanout arm ended without an entry");
    return e;
  });
}
