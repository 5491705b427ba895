import { decodeValue, type EffectRecord } from "@runvil/journal";
import type { RunCatalog, ToolCallOutput } from "@runvil/protocol";
import type { ModelReply, ModelUsage } from "@runvil/sdk";
import { cannotExport, effectName } from "./export-error";

/** YAML data of a scenario (the format's own key spelling). */
export type YamlData = null | boolean | number | string | YamlData[] | { [key: string]: YamlData };

/** The scripted parties of a scenario case, in the format's keys. */
export interface ExportedParties {
  /** `models` (absent: the run made no model round and declares no role). */
  readonly models?: { [key: string]: YamlData };
  /** `expect.model_requests`: each round's advertised tools and message count, in order. */
  readonly modelRequests: YamlData[];
  /** `operator`. */
  readonly operator: YamlData[];
  /** `web` (absent: no page or search). */
  readonly web?: { [key: string]: YamlData };
  /** `host.fixture_tools`. */
  readonly fixtureTools: YamlData[];
  /** `host.unavailable`. */
  readonly unavailable: { [key: string]: YamlData };
}

interface ToolRequest {
  readonly tool: string;
  readonly arguments: { readonly [key: string]: unknown };
}

/** The official Packs a scenario Host serves from its own keys (`web`, `operator`). */
const OFFICIAL = new Set(["web", "user-input", "subagents"]);

function usageData(usage: ModelUsage): { [key: string]: YamlData } | undefined {
  const data: { [key: string]: YamlData } = {};
  if (usage.inputTokens !== 0) data.input = usage.inputTokens;
  if (usage.outputTokens !== 0) data.output = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) data.cached_input = usage.cachedInputTokens;
  if (usage.reasoningTokens !== undefined) data.reasoning = usage.reasoningTokens;
  return Object.keys(data).length === 0 ? undefined : data;
}

/** One recorded model round as a `models.replies` entry. */
function replyData(runId: string, record: EffectRecord): YamlData {
  const failure = record.failure;
  if (failure !== undefined) {
    if (failure.type !== "model") {
      return cannotExport(
        runId,
        `${effectName(record, "round")} failed outside the model provider contract (${failure.type === "error" ? `${failure.name}: ${failure.message}` : failure.message}); a scenario scripts a round's failure only as a ModelFailure (fail: { kind, message })`,
      );
    }
    const extra = Object.keys(failure.fields).filter((key) => key !== "reason");
    if (extra.length > 0) {
      return cannotExport(
        runId,
        `${effectName(record, "round")} failed with the fields ${extra.join(", ")}, which a scenario's fail reply cannot give (only reason)`,
      );
    }
    const reason = failure.fields.reason;
    return {
      fail: {
        kind: failure.kind,
        message: failure.message,
        ...(typeof reason === "string" ? { reason } : {}),
      },
    };
  }
  const reply = decodeValue(record.output ?? "null") as ModelReply;
  const usage = usageData(reply.usage);
  const withUsage: { [key: string]: YamlData } = usage === undefined ? {} : { usage };
  if (reply.text === "" && reply.toolCalls.length === 0) {
    return {
      empty: {
        ...(reply.finishReason === "" ? {} : { finish_reason: reply.finishReason }),
        ...withUsage,
      },
    };
  }
  return {
    ...(reply.text === "" && reply.toolCalls.length > 0 ? {} : { text: reply.text }),
    ...(reply.toolCalls.length === 0
      ? {}
      : {
          tool_calls: reply.toolCalls.map((call) => ({
            id: call.id,
            name: call.name,
            arguments: call.arguments as YamlData,
          })),
        }),
    ...withUsage,
  };
}

/**
 * Refuses effects of one kind that came from more than one chain: a scenario's `replies` and
 * `operator` lists are taken in request order, which concurrent chains do not keep (keyed
 * entries, `task:`, are not in the format yet: determinism.md "Scripted parties").
 */
function oneChain(runId: string, records: readonly EffectRecord[], what: string): void {
  const first = records[0];
  const other = records.find((record) => record.origin.chain !== first?.origin.chain);
  if (first === undefined || other === undefined) return;
  cannotExport(
    runId,
    `${effectName(other)} comes from chain ${other.origin.chain} while ${effectName(first)} came from chain ${first.origin.chain}: a scenario takes its ${what} in request order, which concurrent chains do not keep (keyed ${what} are not in the scenario format)`,
  );
}

function modelsData(
  runId: string,
  rounds: readonly EffectRecord[],
  catalog: RunCatalog,
  bindings: Readonly<Record<string, string>>,
): { [key: string]: YamlData } | undefined {
  if (rounds.length === 0 && catalog.models.length === 0) return undefined;
  oneChain(runId, rounds, "model replies");
  const facts: { [key: string]: YamlData } = {};
  for (const role of catalog.models) {
    facts[role.model] = {
      context_window: role.contextWindow,
      max_output_tokens: role.maxOutputTokens,
      tools: role.tools,
      ...(role.prices === undefined
        ? {}
        : {
            prices: {
              input: role.prices.inputPerMillion,
              output: role.prices.outputPerMillion,
              ...(role.prices.cachedInputPerMillion === undefined
                ? {}
                : { cached_input: role.prices.cachedInputPerMillion }),
            },
          }),
    };
  }
  return {
    ...(Object.keys(bindings).length === 0 ? {} : { bind: { ...bindings } }),
    ...(Object.keys(facts).length === 0 ? {} : { catalog: facts }),
    replies: rounds.map((record) => replyData(runId, record)),
  };
}

function outputOf(record: EffectRecord): ToolCallOutput {
  return decodeValue(record.output ?? "null") as ToolCallOutput;
}

/** The message a tool call failed with as a ToolFailure; refuses any other failure. */
function toolFailure(runId: string, record: EffectRecord, tool: string): string {
  const failure = record.failure;
  if (failure?.type === "tool") return failure.message;
  return cannotExport(
    runId,
    `${effectName(record, tool)} failed outside the tool contract (${failure?.type === "error" ? `${failure.name}: ${failure.message}` : "no ToolFailure"}); a scenario scripts tool failures only as the tool's own (ToolFailure) message`,
  );
}

/** `web.pages` / `web.search` from the web Pack's calls, keyed by url or query. */
function webData(
  runId: string,
  calls: readonly { record: EffectRecord; request: ToolRequest }[],
): { [key: string]: YamlData } | undefined {
  const pages: { [key: string]: YamlData } = {};
  const search: { [key: string]: YamlData } = {};
  for (const { record, request } of calls) {
    const fetch = request.tool === "web/fetch";
    const key = fetch ? request.arguments.url : request.arguments.query;
    const into = fetch ? pages : search;
    const what = fetch
      ? `web/fetch of ${JSON.stringify(key)}`
      : `web/search for ${JSON.stringify(key)}`;
    if (record.failure !== undefined) {
      const message = toolFailure(runId, record, request.tool);
      // The fixture web answers a url it lacks, or a call without one, with these failures.
      const fixture =
        typeof key !== "string"
          ? `web_${fetch ? "fetch" : "search"}: missing ${fetch ? "url" : "query"} argument`
          : fetch
            ? `web_fetch: no page at ${key}`
            : `web_search: no results for "${key}"`;
      if (message === fixture && (typeof key !== "string" || !Object.hasOwn(into, key))) continue;
      cannotExport(
        runId,
        `${effectName(record, what)} failed with "${message}": a scenario's web serves a page (or search results) or their absence, not another failure`,
      );
    }
    const text = outputOf(record).text;
    if (typeof key !== "string") {
      cannotExport(runId, `${effectName(record, what)} answered without a text key`);
    }
    if (Object.hasOwn(into, key) && into[key] !== text) {
      cannotExport(
        runId,
        `${effectName(record, what)} answered differently from an earlier call of the same ${fetch ? "url" : "query"}: a scenario's web answers each one the same`,
      );
    }
    into[key] = text;
  }
  if (Object.keys(pages).length === 0 && Object.keys(search).length === 0) return undefined;
  return {
    ...(Object.keys(pages).length === 0 ? {} : { pages }),
    ...(Object.keys(search).length === 0 ? {} : { search }),
  };
}

/** `operator` from the user-input Pack's asks, in request order. */
function operatorData(
  runId: string,
  asks: readonly { record: EffectRecord; request: ToolRequest }[],
): YamlData[] {
  oneChain(
    runId,
    asks.map((ask) => ask.record),
    "operator answers",
  );
  return asks.map(({ record }) =>
    record.failure === undefined
      ? outputOf(record).text
      : { fail: toolFailure(runId, record, "user-input/ask") },
  );
}

/**
 * `host.fixture_tools` for the tools of the Packs a scenario Host does not serve itself: every
 * tool of such a Pack (as the catalog gave it), answering the one text every recorded call of it
 * got (`returns`) or failing with the one message they all failed with (`fails`); a tool never
 * called fails, naming that. Refused: a Pack with a prelude, a tool whose calls answered
 * differently, a tool the catalog does not list.
 */
function fixtureToolsData(
  runId: string,
  calls: readonly { record: EffectRecord; request: ToolRequest }[],
  catalog: RunCatalog,
): YamlData[] {
  const byTool = new Map<string, EffectRecord[]>();
  for (const { record, request } of calls) {
    const list = byTool.get(request.tool) ?? [];
    list.push(record);
    byTool.set(request.tool, list);
  }
  const packs = new Set<string>();
  for (const [tool, records] of byTool) {
    const listed = catalog.tools.find((entry) => entry.id === tool);
    const first = records[0] as EffectRecord;
    if (listed === undefined || OFFICIAL.has(listed.pack)) {
      cannotExport(
        runId,
        `${effectName(first, tool)}: the tool is not in the run's catalog as a tool a scenario can serve`,
      );
    }
    if (catalog.preludes.some((prelude) => prelude.pack === listed.pack)) {
      cannotExport(
        runId,
        `${effectName(first, tool)}: its Pack ${listed.pack} has a prelude, and a scenario serves another Pack's tools (host.fixture_tools) but not its prelude`,
      );
    }
    packs.add(listed.pack);
  }
  const tools: YamlData[] = [];
  for (const tool of catalog.tools.filter((entry) => packs.has(entry.pack))) {
    const records = byTool.get(tool.id) ?? [];
    const pack = catalog.packs?.find((entry) => entry.id === tool.pack);
    const vendor = pack?.fullName.split("/")[0];
    const declared = vendor !== undefined && vendor !== "runvil";
    const answers = new Set(
      records.map((record) =>
        record.failure === undefined
          ? `returns ${JSON.stringify(outputOf(record))}`
          : `fails ${toolFailure(runId, record, tool.id)}`,
      ),
    );
    if (answers.size > 1) {
      const [first, ...rest] = records;
      const other = rest.find(
        (record) =>
          JSON.stringify(record.output ?? record.failure) !==
          JSON.stringify(first?.output ?? first?.failure),
      ) as EffectRecord;
      cannotExport(
        runId,
        `${effectName(other, tool.id)} answered differently from ${effectName(first as EffectRecord)}: a scenario's fixture tool answers every call the same`,
      );
    }
    const record = records[0];
    const behaviour: { [key: string]: YamlData } =
      record === undefined
        ? { fails: `${tool.id} was not called in the recorded run` }
        : record.failure === undefined
          ? { returns: outputOf(record).text }
          : { fails: toolFailure(runId, record, tool.id) };
    tools.push({
      id: tool.id,
      description: tool.description,
      parameters: tool.parameters as YamlData,
      structured: tool.structured,
      ...(record === undefined || record.failure !== undefined
        ? {}
        : { trusted: outputOf(record).trusted }),
      ...(declared ? { declared: true, vendor } : {}),
      ...behaviour,
    });
  }
  return tools;
}

/** The scripted parties of a recorded run's scenario case, from its effects and catalog. */
export function exportParties(
  runId: string,
  effects: readonly EffectRecord[],
  catalog: RunCatalog,
  bindings: Readonly<Record<string, string>>,
): ExportedParties {
  const issued = [...effects].sort((a, b) => a.issued - b.issued);
  const rounds = issued.filter((record) => record.kind === "model");
  const calls = issued
    .filter((record) => record.kind === "tool")
    .map((record) => ({ record, request: decodeValue(record.request) as ToolRequest }));
  const web = calls.filter(
    (call) => call.request.tool === "web/fetch" || call.request.tool === "web/search",
  );
  const asks = calls.filter((call) => call.request.tool === "user-input/ask");
  const others = calls.filter((call) => !web.includes(call) && !asks.includes(call));
  const unavailable: { [key: string]: YamlData } = {};
  for (const pack of catalog.packs ?? []) {
    if (OFFICIAL.has(pack.id) && pack.unavailable !== null) unavailable[pack.id] = pack.unavailable;
  }
  const models = modelsData(runId, rounds, catalog, bindings);
  const modelRequests = rounds.map((record) => {
    const request = decodeValue(record.request) as {
      messages: readonly unknown[];
      tools: readonly { name: string }[];
    };
    return { tools: request.tools.map((entry) => entry.name), messages: request.messages.length };
  });
  const webPart = webData(runId, web);
  return {
    ...(models === undefined ? {} : { models }),
    modelRequests,
    operator: operatorData(runId, asks),
    ...(webPart === undefined ? {} : { web: webPart }),
    fixtureTools: fixtureToolsData(runId, others, catalog),
    unavailable,
  };
}
