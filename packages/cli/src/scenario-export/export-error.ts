import type { EffectRecord } from "@runvil/journal";

/**
 * A recorded run that a scenario file cannot express (docs/design/record-to-scenario.md): the
 * message names the run, the effect (its id, kind, section) and what the format lacks, so no
 * wrong scenario is ever written.
 */
export class ScenarioExportError extends Error {
  override readonly name = "ScenarioExportError";
}

/** `effect 0.1/3 (tool web/fetch, section "Research")`: how an export error names an effect. */
export function effectName(record: EffectRecord, what?: string): string {
  const kind = what === undefined ? record.kind : `${record.kind} ${what}`;
  return `effect ${record.effect} (${kind}, section "${record.origin.section}")`;
}

/** Throws the export error for `run`: `run ID: {text}; {why}`. */
export function cannotExport(runId: string, text: string): never {
  throw new ScenarioExportError(`run ${runId}: ${text}`);
}
