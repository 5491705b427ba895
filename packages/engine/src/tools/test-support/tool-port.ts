import { ToolFailure } from "@runvil/sdk";
import type { ToolCallOutput, ToolCallRequest } from "../../effects/effect-port";
import type { RunEventOf } from "../../events/run-event";
import { MemoryPort } from "../../test-support/memory-port";
import type { ScenarioCatalog } from "./scenario-host";

/** One scripted operator answer (FORMAT.md `operator`). */
export type OperatorAnswer = string | { readonly fail: string } | { readonly hold: true };

/** The scripted web (FORMAT.md `web`). */
export interface ScenarioWeb {
  readonly pages?: Readonly<Record<string, string>>;
  readonly search?: Readonly<Record<string, string>>;
}

/**
 * A MemoryPort that also runs catalog tools, as a scenario Host would: the official tools over
 * the scripted web and operator, fixture tools with their fixed answers. Every request is kept.
 */
export class ToolPort extends MemoryPort {
  readonly toolRequests: ToolCallRequest[] = [];
  private readonly host: ScenarioCatalog;
  private readonly operator: OperatorAnswer[];
  private readonly web: ScenarioWeb;

  constructor(
    host: ScenarioCatalog,
    options: {
      readonly files?: Readonly<Record<string, string>>;
      readonly operator?: readonly OperatorAnswer[];
      readonly web?: ScenarioWeb;
    } = {},
  ) {
    super(options.files);
    this.host = host;
    this.operator = [...(options.operator ?? [])];
    this.web = options.web ?? {};
  }

  async toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.toolRequests.push(request);
    const known = this.host.behaviour.get(request.tool);
    if (known === undefined) throw new Error(`no tool ${request.tool}`);
    const text = await this.answer(request, known.fixture);
    return { text, trusted: known.trusted };
  }

  /** The tool_result events, in order. */
  toolResults(): RunEventOf<"tool_result">[] {
    return this.events.filter((e): e is RunEventOf<"tool_result"> => e.type === "tool_result");
  }

  private answer(
    request: ToolCallRequest,
    fixture: { readonly returns?: string; readonly fails?: string } | undefined,
  ): Promise<string> | string {
    if (fixture !== undefined) {
      if (fixture.fails !== undefined) throw new ToolFailure(fixture.fails);
      return fixture.returns ?? "";
    }
    const args = request.arguments;
    switch (request.tool) {
      case "web/fetch": {
        const url = args.url;
        if (typeof url !== "string") throw new ToolFailure("web_fetch: missing url argument");
        const page = this.web.pages?.[url];
        if (page === undefined) throw new ToolFailure(`web_fetch: no page at ${url}`);
        return page;
      }
      case "web/search": {
        const query = args.query;
        if (typeof query !== "string") throw new ToolFailure("web_search: missing query argument");
        const results = this.web.search?.[query];
        if (results === undefined) throw new ToolFailure(`web_search: no results for ${query}`);
        return results;
      }
      case "user-input/ask":
        return this.ask(request.signal);
      default:
        throw new Error(`no behaviour for ${request.tool}`);
    }
  }

  private ask(signal: AbortSignal): Promise<string> | string {
    const next = this.operator.shift();
    if (next === undefined) throw new ToolFailure("the scenario has no operator answer left");
    if (typeof next === "string") return next;
    if ("fail" in next) throw new ToolFailure(next.fail);
    return new Promise<string>((_, reject) => {
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  }
}
