import type { JsonObject } from "@runvil/sdk";
import type { RunTools } from "./run-tools";

/** A local tool defined with tools.offer_local (its handler stays in the section's Lua). */
export interface LocalTool {
  /** The alias the model and tools.call use. */
  readonly alias: string;
  /** The description the model reads. */
  readonly description: string;
  /** The JSON Schema built from its params table. */
  readonly parameters: JsonObject;
}

/** A local tool call whose handler runs: how its events name it. */
export interface LocalCallFrame {
  /** The alias called. */
  readonly alias: string;
  /** The model's call id; `''` for a script call. */
  readonly callId: string;
  /** The round the call belongs to, fixed when it starts. */
  readonly turn: number;
}

/** One tool of a section's rendered tool list, as a model round advertises it. */
export interface RenderedTool {
  /** The name the model sees: a catalog tool's wire name, or a local tool's alias. */
  readonly name: string;
  /** The description, unchanged from the catalog or tools.offer_local. */
  readonly description: string;
  /** The parameter schema, a JSON object. */
  readonly parameters: JsonObject;
  /** The catalog tool's id; null for a local tool. */
  readonly tool: string | null;
}

/**
 * A section's rendered tool list: its offered and local tools in the model's order, and whether
 * the four task built-ins follow them (the section called tools.allow_tasks).
 */
export interface RenderedToolList {
  readonly tools: readonly RenderedTool[];
  readonly taskBuiltins: boolean;
}

/**
 * One section entry's tool state (tools chapter, "Tool scope and the task built-ins"): its
 * scope (tools.offer tools and packs.offer Packs in first-offer order, local tools, the task
 * allowlist), the rendered tool list once the first loop round builds it, the loop's round
 * count, the local handlers running now, and the tools.calls counts. Every entry starts empty.
 */
export class ToolScope {
  /** The tools tools.offer put in scope, by id, in first-offer order. */
  readonly offeredTools: string[] = [];
  /** The Packs packs.offer put in scope, by id, in first-offer order. */
  readonly offeredPacks: string[] = [];
  /** The local tools, by alias, in definition order. */
  readonly locals = new Map<string, LocalTool>();
  /** The task allowlist: null until tools.allow_tasks, `any`, or the trimmed headings. */
  allowlist: "any" | readonly string[] | null = null;
  /** The rendered tool list, fixed at the section's first loop round; null before it. */
  rendered: RenderedToolList | null = null;
  /** The section's model round count (0 until a models.loop round runs). */
  rounds = 0;
  /** The local tool calls whose handlers run now, innermost last. */
  readonly localCalls: LocalCallFrame[] = [];
  /** The tools.calls counts: null until the section's first tool call. */
  counts: Map<string, number> | null = null;
  private readonly toolSet = new Set<string>();
  private readonly packSet = new Set<string>();
  /** Bumped by every offer that adds to the scope; the counts know the version they seeded. */
  private version = 0;
  private seededVersion = -1;

  /** Local tool handlers running now (jump is refused while it is above 0). */
  get handlerDepth(): number {
    return this.localCalls.length;
  }

  /** Adds tools to the scope in order; a tool already in it keeps its place. */
  offerTools(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.toolSet.has(id)) continue;
      this.toolSet.add(id);
      this.offeredTools.push(id);
      this.version++;
    }
  }

  /** Adds Packs to the scope in order; a Pack already in it keeps its place. */
  offerPacks(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.packSet.has(id)) continue;
      this.packSet.add(id);
      this.offeredPacks.push(id);
      this.version++;
    }
  }

  /**
   * The catalog tools in scope, by id, in the model's order: the tools.offer tools, then each
   * offered Pack's tools in tool id order, each tool once.
   */
  scopeToolIds(run: RunTools): string[] {
    const ids = [...this.offeredTools];
    const seen = new Set(ids);
    for (const pack of this.offeredPacks) {
      for (const tool of run.packs.get(pack)?.tools ?? []) {
        if (seen.has(tool.id)) continue;
        seen.add(tool.id);
        ids.push(tool.id);
      }
    }
    return ids;
  }

  /**
   * Records one tool call's dispatch under `key` (a catalog tool's id or a local alias): the
   * first call sets the counts up, and every call seeds each catalog tool now in scope at 0
   * before counting this one (tools chapter, "When tools.calls appears").
   */
  countDispatch(run: RunTools, key: string): void {
    const counts = this.counts ?? new Map<string, number>();
    this.counts = counts;
    if (this.seededVersion !== this.version) {
      for (const id of this.scopeToolIds(run)) if (!counts.has(id)) counts.set(id, 0);
      this.seededVersion = this.version;
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
}
