import type { DroppedTool, RunEvent, RunResult } from "@runvil/protocol";
import type { JsonObject } from "@runvil/sdk";
import { expect } from "vitest";
import { bindScenarioRoles, type ScenarioModels } from "../../models/test-support/scripted-rounds";
import { type Engine, loadEngine } from "../../run/engine";
import { parseForTest } from "../../test-support/parse";
import {
  type OperatorAnswer,
  prepareScenario,
  type ScenarioHost,
  type ScenarioWeb,
} from "./scenario-host";
import { ToolPort } from "./tool-port";

/** What a case expects of one model request (FORMAT.md `expect.model_requests`). */
export interface ModelRequestExpect {
  /** The wire names advertised, in order. */
  readonly tools?: readonly string[];
  /** How many message records were sent. */
  readonly messages?: number;
  /** The advertised definitions in order, each checked on the keys given. */
  readonly tool_definitions?: readonly Readonly<Record<string, unknown>>[];
}

/** What a case expects (the keys of FORMAT.md `expect`). */
export interface ToolCaseExpect {
  readonly result?: string;
  readonly result_matches?: string;
  readonly outcome?: "succeeded" | "failed" | "cancelled";
  readonly error?: {
    readonly kind?: string;
    readonly message?: string;
    readonly message_contains?: string;
    readonly message_matches?: string;
  };
  /** Events in this relative order, each matched on the keys given. */
  readonly events?: readonly Readonly<Record<string, unknown>>[];
  readonly store?: Readonly<Record<string, string>>;
  readonly var?: JsonObject;
  readonly checkpoints?: readonly string[];
  /** Per model request, in order; `[]`: no model request was made. */
  readonly model_requests?: readonly ModelRequestExpect[];
}

/** One case of a tools scenario file (FORMAT.md), with its prompt as lines. */
export interface ToolCase {
  readonly name: string;
  readonly prompt: readonly string[];
  readonly host?: ScenarioHost;
  readonly operator?: readonly OperatorAnswer[];
  readonly web?: ScenarioWeb;
  readonly store?: Readonly<Record<string, string>>;
  readonly run?: { readonly name?: string; readonly seed?: number };
  readonly cancel_after_ms?: number;
  /** The roles' bindings (default `scripted-model`) and the scripted replies. */
  readonly models?: ScenarioModels;
  readonly expect: ToolCaseExpect;
}

/** What running a case gives back. */
export interface ToolCaseRun {
  readonly result: RunResult;
  readonly port: ToolPort;
}

let engine: Promise<Engine> | undefined;

/** What a test adds to a case's run: a port tweak, a cancel signal, dropped tools. */
export interface ToolCaseExtras {
  /** Called with the port before the run starts (to replace toolCall, say). */
  readonly configure?: (port: ToolPort) => void;
  readonly signal?: AbortSignal;
  readonly dropped?: readonly DroppedTool[];
}

/** Runs a case's prompt on its scenario Host with a {@link ToolPort}. */
export async function runToolCase(c: ToolCase, extras: ToolCaseExtras = {}): Promise<ToolCaseRun> {
  engine ??= loadEngine();
  const prompt = await parseForTest(`${c.prompt.join("\n")}\n`);
  const prepared = await prepareScenario(prompt, {
    ...(c.host === undefined ? {} : { host: c.host }),
    ...(c.operator === undefined ? {} : { operator: c.operator }),
    ...(c.web === undefined ? {} : { web: c.web }),
  });
  const port = new ToolPort(prepared, {
    ...(c.store === undefined ? {} : { files: c.store }),
    ...(c.models?.replies === undefined ? {} : { replies: c.models.replies }),
  });
  extras.configure?.(port);
  const catalog = {
    ...prepared.catalog,
    dropped: extras.dropped ?? prepared.catalog.dropped,
    models: bindScenarioRoles(
      prompt.frontmatter.models.map((role) => role.label),
      c.models?.bind,
    ),
  };
  const deadline = c.cancel_after_ms === undefined ? undefined : Date.now() + c.cancel_after_ms;
  const result = await (await engine).run(prompt, {
    effects: port,
    catalog,
    ...(extras.signal === undefined ? {} : { signal: extras.signal }),
    ...(c.run?.seed === undefined ? {} : { seed: c.run.seed }),
    ...(c.run?.name === undefined ? {} : { execution: c.run.name }),
    ...(deadline === undefined ? {} : { shouldCancel: () => Date.now() > deadline }),
  });
  return { result, port };
}

/** Whether `event` has every key of `want` with an equal value. */
function matches(event: RunEvent, want: Readonly<Record<string, unknown>>): boolean {
  const record = event as unknown as Record<string, unknown>;
  return Object.entries(want).every(
    ([key, value]) => JSON.stringify(record[key]) === JSON.stringify(value),
  );
}

/** Runs a case and checks every expectation it gives. */
export async function checkToolCase(c: ToolCase): Promise<ToolCaseRun> {
  const run = await runToolCase(c);
  const { result, port } = run;
  const want = c.expect;
  const wantsResult = want.result !== undefined || want.result_matches !== undefined;
  const outcome =
    want.outcome ?? (want.error !== undefined ? "failed" : wantsResult ? "succeeded" : undefined);
  if (outcome !== undefined) expect(result.outcome, JSON.stringify(result)).toBe(outcome);
  if (wantsResult) {
    expect(result.outcome, JSON.stringify(result)).toBe("succeeded");
    const text = result.outcome === "succeeded" ? (result.result ?? "") : "";
    if (want.result !== undefined) expect(text).toBe(want.result);
    if (want.result_matches !== undefined) expect(text).toMatch(new RegExp(want.result_matches));
  }
  if (want.error !== undefined) {
    if (result.outcome !== "failed")
      throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
    const { kind, message, message_contains, message_matches } = want.error;
    if (kind !== undefined) expect(result.error.kind).toBe(kind);
    if (message !== undefined) expect(result.error.message.split("\n")[0]).toBe(message);
    if (message_contains !== undefined) expect(result.error.message).toContain(message_contains);
    if (message_matches !== undefined)
      expect(result.error.message).toMatch(new RegExp(message_matches));
  }
  if (want.events !== undefined) {
    let at = 0;
    for (const expected of want.events) {
      while (at < port.events.length && !matches(port.events[at] as RunEvent, expected)) at++;
      expect(at, `event ${JSON.stringify(expected)} in order`).toBeLessThan(port.events.length);
      at++;
    }
  }
  if (want.checkpoints !== undefined) expect(port.checkpoints()).toEqual(want.checkpoints);
  if (want.model_requests !== undefined) {
    const requests = port.rounds.requests;
    expect(requests.length, "model requests").toBe(want.model_requests.length);
    for (const [i, expected] of want.model_requests.entries()) {
      const request = requests[i];
      if (expected.tools !== undefined) {
        expect(request?.tools.map((tool) => tool.name)).toEqual(expected.tools);
      }
      if (expected.messages !== undefined) expect(request?.messages.length).toBe(expected.messages);
      if (expected.tool_definitions !== undefined) {
        const sent = request?.tools ?? [];
        expect(sent.length, "tool definitions").toBe(expected.tool_definitions.length);
        for (const [j, definition] of expected.tool_definitions.entries()) {
          expect(sent[j]).toMatchObject(definition);
        }
      }
    }
  }
  if (want.store !== undefined) expect(await port.files()).toMatchObject(want.store);
  if (want.var !== undefined) expect(result.var).toEqual(want.var);
  return run;
}
