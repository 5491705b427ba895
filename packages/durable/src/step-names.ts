/**
 * The names of the DBOS steps a durable run records (docs/design/durable.md "The mapping"). DBOS
 * matches steps by position; the run answers them by these names.
 */

/** The prefix of an effect's step: `runvil:{effect id}`. */
export const EFFECT_STEP_PREFIX = "runvil:";
/** The prefix of an ask's marker step, `runvil.ask:{effect id}`, followed by its DBOS.recv. */
export const ASK_STEP_PREFIX = "runvil.ask:";
/** A position a recovery filled because the step recorded there never completed. */
export const GAP_STEP = "runvil.gap";
/** DBOS's own names for a recv and the durable sleep of its timeout. */
export const DBOS_RECV = "DBOS.recv";
export const DBOS_SLEEP = "DBOS.sleep";

/** The step name of an effect. */
export function effectStepName(effect: string): string {
  return `${EFFECT_STEP_PREFIX}${effect}`;
}

/** The marker step name of an ask. */
export function askStepName(effect: string): string {
  return `${ASK_STEP_PREFIX}${effect}`;
}
