import { type JsonObject, ToolFailure } from "@runvil/sdk";
import type { ToolCallOutput, ToolCallRequest } from "../effects/effect-port";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { runTestPrompt, type TestRun, type TestRunOptions } from "../test-support/run-prompt";
import type { CatalogTool, RunCatalog, RunPrelude } from "../tools/run-catalog";

/** The user-input Pack's prelude, as tools.txt "Pack preludes" prints it. */
export const USER_INPUT_PRELUDE = `local pack = ...
input = {}
function input.ask(...)
  if select('#', ...) > 0 then
    error("input.ask takes no arguments", 2)
  end
  return tools.call(pack .. "/ask")
end
`;

/** The official tools the cases call, as catalog data. */
export const OFFICIAL_TOOLS: readonly CatalogTool[] = [
  {
    id: "user-input/ask",
    pack: "user-input",
    wireName: "user-input_ask",
    description: "Wait for the operator's next message and return its text.",
    parameters: { type: "object", properties: {} },
    structured: false,
  },
  {
    id: "web/fetch",
    pack: "web",
    wireName: "web_fetch",
    description: "Fetch a web page and return its readable text.",
    parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    structured: false,
  },
];

/** One scripted operator answer: a text, a failure of the wait, or a wait that never ends. */
export type OperatorAnswer = string | { readonly fail: string } | { readonly hold: true };

/**
 * A MemoryPort that also answers catalog tool calls: `user-input/ask` from the scripted operator
 * answers in order, `web/fetch` from `pages`; every request is kept.
 */
export class ToolPort extends MemoryPort {
  readonly toolCalls: ToolCallRequest[] = [];
  private readonly answers: OperatorAnswer[];
  private readonly pages: Readonly<Record<string, string>>;

  constructor(
    options: {
      files?: Readonly<Record<string, string>>;
      operator?: readonly OperatorAnswer[];
      pages?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(options.files);
    this.answers = [...(options.operator ?? [])];
    this.pages = options.pages ?? {};
  }

  toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.toolCalls.push(request);
    if (request.tool === "web/fetch") {
      const url = (request.arguments as JsonObject).url;
      const page = typeof url === "string" ? this.pages[url] : undefined;
      if (page === undefined)
        return Promise.reject(new ToolFailure(`web_fetch: no page at ${url}`));
      return Promise.resolve({ text: page, trusted: false });
    }
    if (request.tool !== "user-input/ask") {
      return Promise.reject(new ToolFailure(`no fake for ${request.tool}`));
    }
    const answer = this.answers.shift();
    if (answer === undefined) {
      return Promise.reject(new Error("the scripted operator has no answer left"));
    }
    if (typeof answer === "string") return Promise.resolve({ text: answer, trusted: true });
    if ("fail" in answer) return Promise.reject(new ToolFailure(answer.fail));
    return new Promise((_, reject) => {
      request.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  }
}

/** A run catalog with the official tools and `preludes` (Pack id → source, in order). */
export function catalogWith(preludes: Readonly<Record<string, string>>): RunCatalog {
  const list: RunPrelude[] = Object.entries(preludes).map(([pack, source]) => ({ pack, source }));
  return { tools: OFFICIAL_TOOLS, packs: null, preludes: list, dropped: [] };
}

/** A case: the prompt body (from the `# Title` on) and its frontmatter lines. */
export interface PreludeCase {
  readonly body: string;
  readonly frontmatter?: string;
  /** Pack id → prelude source, in `uses:` order. */
  readonly preludes: Readonly<Record<string, string>>;
  readonly operator?: readonly OperatorAnswer[];
  readonly pages?: Readonly<Record<string, string>>;
  readonly files?: Readonly<Record<string, string>>;
  readonly options?: Omit<TestRunOptions, "catalog" | "port" | "files">;
  /** Called before each store operation (see MemoryPort.beforeStoreOp). */
  readonly beforeStoreOp?: MemoryPort["beforeStoreOp"];
}

/** Runs a case on a ToolPort; the port is `run.port`. */
export async function runPreludeCase(
  c: PreludeCase,
): Promise<TestRun & { readonly port: ToolPort }> {
  const port = new ToolPort({
    ...(c.files === undefined ? {} : { files: c.files }),
    ...(c.operator === undefined ? {} : { operator: c.operator }),
    ...(c.pages === undefined ? {} : { pages: c.pages }),
  });
  port.beforeStoreOp = c.beforeStoreOp;
  const run = await runTestPrompt(promptText(c.body, c.frontmatter ?? ""), {
    ...c.options,
    catalog: catalogWith(c.preludes),
    port,
  });
  return { ...run, port };
}
