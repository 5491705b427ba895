import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { decodeValue, type EffectRecord, promptHash, type RecordedRun } from "@runvil/journal";
import type { RunResult } from "@runvil/protocol";
import type { CliHostSnapshot } from "../journal/record-run";
import { cannotExport } from "./export-error";
import { exportParties, type YamlData } from "./export-parties";
import { exportStore } from "./export-store";

/** One scenario case as YAML data, in the format's keys (docs/testing.md). */
export type ScenarioCaseData = { [key: string]: YamlData };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function snapshotOf(run: RecordedRun): CliHostSnapshot {
  const host = run.inputs.host as Partial<CliHostSnapshot> | null;
  if (host === null || typeof host !== "object" || host.catalog === undefined) {
    return cannotExport(
      run.id,
      "its record has no Host snapshot (it was not recorded by runvil run)",
    );
  }
  return host as CliHostSnapshot;
}

/** `prompt_file` (relative to the scenario's folder) when the file there is still the recorded one, else `prompt`. */
function promptData(
  run: RecordedRun,
  snapshot: CliHostSnapshot,
  scenarioFile: string | undefined,
): ScenarioCaseData {
  if (
    scenarioFile !== undefined &&
    existsSync(snapshot.promptFile) &&
    promptHash(new Uint8Array(readFileSync(snapshot.promptFile))) === run.promptHash
  ) {
    return {
      prompt_file: relative(dirname(scenarioFile), snapshot.promptFile).split(sep).join("/"),
    };
  }
  try {
    return { prompt: UTF8.decode(run.inputs.promptBytes) };
  } catch {
    return cannotExport(
      run.id,
      `its prompt ${run.promptPath} is not UTF-8 text, which a scenario's prompt must be`,
    );
  }
}

function expectData(run: RecordedRun, result: RunResult): ScenarioCaseData {
  const total = result.usage.total;
  const usage: ScenarioCaseData =
    total.rounds === 0
      ? {}
      : {
          usage: {
            rounds: total.rounds,
            input_tokens: total.inputTokens,
            output_tokens: total.outputTokens,
            cached_input_tokens: total.cachedInputTokens,
            reasoning_tokens: total.reasoningTokens,
            cost_usd: total.costUsd,
            unpriced_rounds: total.unpricedRounds,
          },
        };
  switch (result.outcome) {
    case "succeeded":
      return {
        outcome: "succeeded",
        ...(result.result === null ? {} : { result: result.result }),
        var: result.var as YamlData,
        ...usage,
      };
    case "failed":
      return {
        outcome: "failed",
        error: { kind: result.error.kind, message: result.error.message.split("\n")[0] ?? "" },
        var: result.var as YamlData,
        ...usage,
      };
    case "cancelled":
      return cannotExport(
        run.id,
        "it was cancelled (or stopped): a scenario cannot cancel a run at the point where it was cancelled",
      );
  }
}

/**
 * The scenario case of a recorded run (docs/design/record-to-scenario.md): its prompt, args and
 * seed, the model replies, operator answers, web pages and search results and other Packs'
 * tool answers it got (as the scripted parties), the store it started from, and what it ended
 * with (outcome, result or error, `var`, usage, each model request's tools and message count,
 * the store). `scenarioFile` is where the case
 * will be written (for `prompt_file`), or undefined. Throws a ScenarioExportError naming the
 * effect for anything the scenario format cannot express.
 */
export async function exportScenarioCase(
  run: RecordedRun,
  effects: readonly EffectRecord[],
  scenarioFile: string | undefined,
): Promise<ScenarioCaseData> {
  if (run.result === undefined) {
    return cannotExport(
      run.id,
      "it has no ending (it is still running, or it was killed): there is no result to expect",
    );
  }
  const snapshot = snapshotOf(run);
  const result = decodeValue(run.result) as RunResult;
  const expect = expectData(run, result);
  if (
    result.outcome === "failed" &&
    result.error.kind === "Quota" &&
    snapshot.catalog.budget !== undefined
  ) {
    cannotExport(
      run.id,
      'it ended on a budget and the Host set one (runvil.config.json "budget"), which a scenario cannot set',
    );
  }
  const parties = exportParties(run.id, effects, snapshot.catalog, run.inputs.bindings);
  const store = await exportStore(run.id, effects, snapshot.store !== null);
  const seed = BigInt(run.inputs.seed);
  const host: ScenarioCaseData = {
    ...(Object.keys(parties.unavailable).length === 0 ? {} : { unavailable: parties.unavailable }),
    ...(parties.fixtureTools.length === 0 ? {} : { fixture_tools: parties.fixtureTools }),
  };
  return {
    name: `recorded run ${run.id}`,
    ...promptData(run, snapshot, scenarioFile),
    args: run.inputs.args,
    ...(Object.keys(host).length === 0 ? {} : { host }),
    run: { seed: seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed.toString() },
    ...(parties.models === undefined ? {} : { models: parties.models }),
    ...(parties.operator.length === 0 ? {} : { operator: parties.operator }),
    ...(parties.web === undefined ? {} : { web: parties.web }),
    ...(Object.keys(store.initial).length === 0 ? {} : { store: { ...store.initial } }),
    expect: {
      ...expect,
      ...(parties.models === undefined ? {} : { model_requests: parties.modelRequests }),
      store: { ...store.final },
    },
  };
}
