import { join } from "node:path";
import type { CatalogModel, Host, PreparedModelRole } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { INPUT_BROKER, type InputBroker } from "@runvil/sdk";
import { formatHostError, formatParseError } from "../format-parse-error";
import { CliHostCache, configFileFor } from "../host/cli-host";
import type { CliIo } from "../io";
import { withModelHints } from "../model-hints";
import { readFailureMessage } from "../read-failure";
import { parseModelOverrides } from "./model-overrides";

/** Options of `runvil models`. */
export interface ModelsOptions {
  readonly json: boolean;
  /** The Host configuration; absent: the nearest runvil.config.json (of each prompt, else of the working directory). */
  readonly config?: string;
  /** `--model role=id` overrides, as typed. */
  readonly model?: readonly string[];
}

/** One catalog model in `runvil models --json`. */
export interface CatalogModelJson {
  id: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  tools: boolean;
  prices?: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number };
}

/** A price as written, to at most four decimals: `$2`, `$0.25`, `$0.125`. */
function dollars(value: number): string {
  return `$${Number(value.toFixed(4))}`;
}

/** One catalog line: `  local:qwen3 (provider local, 32768-token context, 4096-token replies, tools, $0.1 in / $0.2 out / $0.01 cached per million tokens)`. */
export function catalogLine(model: CatalogModel): string {
  const { info } = model;
  const parts = [
    `provider ${model.provider.name}`,
    `${info.contextWindow}-token context`,
    `${info.maxOutputTokens}-token replies`,
    info.tools ? "tools" : "no tools",
  ];
  const prices = info.prices;
  if (prices !== undefined) {
    const cached =
      prices.cachedInputPerMillion === undefined
        ? ""
        : ` / ${dollars(prices.cachedInputPerMillion)} cached`;
    parts.push(
      `${dollars(prices.inputPerMillion)} in / ${dollars(prices.outputPerMillion)} out${cached} per million tokens`,
    );
  }
  return `  ${info.id} (${parts.join(", ")})`;
}

function catalogJson(host: Host): CatalogModelJson[] {
  return [...host.models.values()].map(({ info, provider }) => ({
    id: info.id,
    provider: provider.name,
    contextWindow: info.contextWindow,
    maxOutputTokens: info.maxOutputTokens,
    tools: info.tools,
    ...(info.prices === undefined ? {} : { prices: { ...info.prices } }),
  }));
}

const FROM: Readonly<Record<PreparedModelRole["from"], string>> = {
  override: "--model",
  model: "its model:",
  default: "the default model",
  only: "the catalog's only model",
};

/** Stands in for the terminal's broker: this command prepares runs but never runs one. */
const PRESENT_BROKER: InputBroker = {
  ask: () => Promise.reject(new Error("runvil models runs nothing")),
};

function printCatalog(host: Host, configFile: string | undefined, io: CliIo): void {
  const from = configFile === undefined ? "the default Host" : configFile;
  const count = host.models.size;
  if (count === 0) {
    io.stdout(
      `catalog (${from}): no models; set OPENAI_API_KEY or ANTHROPIC_API_KEY, or add "providers" to runvil.config.json\n`,
    );
  } else {
    io.stdout(`catalog (${from}): ${count} ${count === 1 ? "model" : "models"}\n`);
    for (const model of host.models.values()) io.stdout(`${catalogLine(model)}\n`);
  }
  io.stdout(`default model: ${host.defaultModel ?? "none"}\n`);
}

/**
 * `runvil models [FILE...]`: the model catalog of the Host (each model's provider, context,
 * reply cap, tools and prices) and, for each prompt file, what each of its roles binds to (with
 * `--model role=id` overrides) or the requirements notice with the configuration to add. Exit
 * 0 when every role binds, 1 otherwise, 2 for a bad option.
 */
export async function modelsCommand(
  files: readonly string[],
  options: ModelsOptions,
  io: CliIo,
): Promise<number> {
  const overrides = parseModelOverrides(options.model ?? []);
  if (!overrides.ok) {
    io.stderr(`${overrides.message}\n`);
    return 2;
  }
  const hosts = new CliHostCache();
  const hostOptions = (promptFile: string) => ({
    promptFile,
    ...(options.config === undefined ? {} : { configFile: options.config }),
  });
  const here = hostOptions(join(process.cwd(), "runvil.config.json"));
  const first = files.length === 0 ? here : hostOptions(files[0] as string);
  const loaded = await hosts.get(first);
  if (!loaded.ok) {
    io.stderr(`Host error: ${loaded.message}\n`);
    return 1;
  }
  const report: { catalog: CatalogModelJson[]; defaultModel: string | null; files: unknown[] } = {
    catalog: catalogJson(loaded.host),
    defaultModel: loaded.host.defaultModel ?? null,
    files: [],
  };
  if (!options.json) printCatalog(loaded.host, await configFileFor(first), io);
  let failed = 0;
  const parse = files.length === 0 ? undefined : createPromptParser(await loadLuaRuntime());
  for (const file of files) {
    const fail = (text: string, message: string): void => {
      failed += 1;
      report.files.push({ file, ok: false, error: message });
      if (!options.json) io.stderr(`${text}\n`);
    };
    let bytes: Uint8Array;
    try {
      bytes = await io.readFile(file);
    } catch (error) {
      const message = readFailureMessage(error);
      fail(`${file}: ${message}`, message);
      continue;
    }
    const parsed = (parse as ReturnType<typeof createPromptParser>)(bytes, { path: file });
    if (!parsed.ok) {
      fail(formatParseError(file, parsed.error), parsed.error.message);
      continue;
    }
    const host = await hosts.get(hostOptions(file));
    if (!host.ok) {
      fail(formatHostError(file, host.message), host.message);
      continue;
    }
    const prepared = host.host.prepare(parsed.prompt, {
      services: { [INPUT_BROKER]: PRESENT_BROKER },
      models: overrides.models,
    });
    if (!prepared.ok) {
      const notice = withModelHints(prepared.notice, host.host);
      fail(`${file}: RequirementsUnmet error: ${notice}`, notice);
      continue;
    }
    const roles = prepared.run.models;
    report.files.push({
      file,
      ok: true,
      bindings: roles.map((role) => ({
        role: role.label,
        model: role.model,
        provider: role.provider,
        from: role.from,
      })),
    });
    if (options.json) continue;
    io.stdout(`${file}:${roles.length === 0 ? " no model roles" : ""}\n`);
    for (const role of roles) {
      io.stdout(
        `  model ${role.label}: ${role.model} (provider ${role.provider}, from ${FROM[role.from]})\n`,
      );
    }
  }
  if (options.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return failed === 0 ? 0 : 1;
}
