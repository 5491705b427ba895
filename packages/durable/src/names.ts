import packageJson from "../package.json" with { type: "json" };

/** The DBOS application durable runs belong to. */
export const DURABLE_APPLICATION = "runvil";
/** The DBOS workflow name of a durable run. */
export const DURABLE_WORKFLOW = "runvil.run";
/** The DBOS queue durable runs wait on for a worker. */
export const DURABLE_QUEUE = "runvil-runs";

/** This Runvil's version (the core packages are versioned together). */
export const RUNVIL_VERSION: string = packageJson.version;

/**
 * The DBOS application version of a Runvil version: DBOS hands a worker only the runs of its
 * own application version, so a worker never starts a run another Runvil version journaled.
 */
export function applicationVersion(runvilVersion: string): string {
  return `runvil-${runvilVersion}`;
}

/** The Runvil version of a DBOS application version, or undefined for another application's. */
export function runvilVersionOf(applicationVersionName: string | undefined): string | undefined {
  if (applicationVersionName === undefined || !applicationVersionName.startsWith("runvil-")) {
    return undefined;
  }
  return applicationVersionName.slice("runvil-".length);
}
