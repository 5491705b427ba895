import type { Prompt } from "@runvil/parser";
import type { EventFields, RunEvent, RunEventType } from "@runvil/protocol";
import { StoreClaims } from "../claims/store-claims";
import { toLuaJsonObject } from "../json/convert";
import type { TaskBuiltinPort } from "../loop/task-builtin-port";
import { type BlockLocator, encodeJsonValue, type LuaJsonObject, type LuaRuntime } from "../lua";
import { runNonce } from "../untrusted/nonce";
import { SectionTree } from "../walk/section-tree";
import type { ResolvedRunOptions } from "./run-options";

/** Where an event comes from: its chain, entry and section. */
export interface EventSource {
  readonly chain: string;
  readonly entry: string | null;
  readonly section: string;
}

/**
 * One run's facts: the prompt and its section tree, the resolved options, the nonce, the event
 * sequence, argv and the root chain's `var`. Lifetimes (signals, live VMs, endings) are not
 * here: they belong to the scopes (scope/scope.ts), the run's being its root scope.
 */
export class RunContext {
  readonly prompt: Prompt;
  readonly tree: SectionTree;
  readonly options: ResolvedRunOptions;
  readonly runtime: LuaRuntime;
  readonly nonce: string;
  /** Names every block of the prompt by its first line, for error messages. */
  readonly locate: BlockLocator;
  private argvValue: LuaJsonObject = {};
  private argvText = "{}";
  /** `var` as last read back on the root chain (the run result's `var`). */
  rootVar: LuaJsonObject = {};
  /** The `ui()` snapshot in the Lua side's JSON model, or undefined without one. */
  readonly uiSnapshot: LuaJsonObject | undefined;
  /**
   * The model's task built-ins (docs/design/loop.md §5), set by the tasks area; undefined until
   * then, when a loop in a section that allows tasks refuses to start.
   */
  taskBuiltins: TaskBuiltinPort | undefined = undefined;
  /**
   * The store claim rule and the task tree it reads (docs/design/determinism.md): every store
   * operation is checked here before it is issued; the tasks area reports spawns and joins.
   */
  readonly claims = new StoreClaims();
  private seq = 0;

  constructor(prompt: Prompt, options: ResolvedRunOptions, runtime: LuaRuntime) {
    this.prompt = prompt;
    this.tree = new SectionTree(prompt);
    this.options = options;
    this.runtime = runtime;
    this.nonce = runNonce(options.seed);
    this.uiSnapshot = options.ui === undefined ? undefined : toLuaJsonObject(options.ui);
    const labels = new Map(prompt.blocks.map((block) => [block.firstLine, block.label]));
    this.locate = (firstLine) => labels.get(firstLine);
  }

  /** The run's argv: derived before the H1 pass, read back and frozen after it. */
  get argv(): LuaJsonObject {
    return this.argvValue;
  }

  set argv(value: LuaJsonObject) {
    this.argvValue = value;
    this.argvText = encodeJsonValue(value);
  }

  /** The run's argv as JSON text (json.encode's rules), what every section VM decodes. */
  get argvJson(): string {
    return this.argvText;
  }

  /** The number of events emitted so far (the last `seq`). */
  get eventCount(): number {
    return this.seq;
  }

  /** Emits one event through the EffectPort, numbering it. */
  emit<T extends RunEventType>(source: EventSource, type: T, fields: EventFields[T]): void {
    const event = {
      seq: ++this.seq,
      type,
      execution: this.options.execution,
      chain: source.chain,
      entry: source.entry,
      section: source.section,
      ...fields,
    } as RunEvent;
    this.options.effects.emit(event);
  }
}
