import type { LuaBlock, SectionItem } from "@runvil/parser";
import type { EffectOrigin } from "@runvil/protocol";
import { DEFAULT_LUA_MEMORY_BYTES, type LuaJsonObject, type SysHandle } from "../lua";
import { MessageList } from "../messages/message-list";
import { EntryModels } from "../models/entry-models";
import { runModelsOf } from "../models/run-models";
import { EMPTY_TEMPLATE, type ProseTemplate } from "../prose/template";
import type { EventSource, RunContext } from "../run/run-context";
import type { Scope } from "../scope/scope";
import type { TaskSet } from "../tasks/task-set";
import { ToolScope } from "../tools/tool-scope";
import type { Chain } from "./chain";

/** A jump recorded during a block: where the section goes when the block ends. */
export interface PendingJump {
  /** The target section's index. */
  readonly section: number;
  /** The target as written, trimmed (for the `jump` event). */
  readonly target: string;
}

/**
 * One section entry: the section (or the H1 pass), the chain and id it runs under, its
 * `args`, and the state its globals share while it runs (pending prose, a pending jump,
 * libraries loading, the effect counter).
 */
export class Entry {
  readonly ctx: RunContext;
  readonly chain: Chain;
  /** The chain's scope: the entry's VM, the signals of its effects, its ending. */
  readonly scope: Scope;
  /** The entry id (`sys.id`). */
  readonly id: string;
  /** The section's index, or null for the H1 pass. */
  readonly section: number | null;
  /** The section name (the title for the H1 pass). */
  readonly name: string;
  /** The `args` global of this entry. */
  readonly args: string;
  /** The section's items (prose and blocks) in file order. */
  readonly items: readonly SectionItem[];
  /** The section's Lua blocks in order. */
  readonly blocks: readonly LuaBlock[];
  /** Where this entry's events come from. */
  readonly source: EventSource;
  /** The pending prose of the block that runs now. */
  prose: ProseTemplate = EMPTY_TEMPLATE;
  /** The jump the running block asked for, if any. */
  pendingJump: PendingJump | undefined;
  /** Reads this entry's `var` back as JSON data (set when the VM's `var` is installed). */
  readVar: () => LuaJsonObject = () => ({});
  /** The entry's tool scope, local tools, tools.calls counts and handler depth (tools). */
  readonly tools = new ToolScope();
  /** The tasks this entry owns (set when its VM is set up: section-setup.ts). */
  taskSet!: TaskSet;
  /** Libraries whose load has started and not finished, innermost last. */
  readonly loading: string[] = [];
  /** The section's conversation, behind `messages` (empty when the entry begins). */
  readonly messages: MessageList;
  /** The entry's model choice and whether its first tool call came (models). */
  readonly models: EntryModels;
  /** The entry's `sys` (set when the VM's `sys` is installed), for `sys.model`. */
  sys: SysHandle | undefined;
  private effects = 0;

  constructor(ctx: RunContext, chain: Chain, section: number | null, args: string) {
    this.ctx = ctx;
    this.chain = chain;
    this.scope = chain.scope;
    this.id = chain.nextEntryId();
    this.section = section;
    this.args = args;
    const { prompt } = ctx;
    const owner = section === null ? prompt.title : prompt.sections[section];
    if (owner === undefined) throw new RangeError(`no section ${section}`);
    this.name = section === null ? prompt.title.title : (prompt.sections[section]?.name ?? "");
    this.items = owner.items;
    this.blocks = owner.blocks;
    this.source = { chain: chain.id, entry: this.id, section: this.name };
    this.messages = new MessageList(ctx.options.luaMemoryBytes ?? DEFAULT_LUA_MEMORY_BYTES);
    this.models = new EntryModels(runModelsOf(ctx).defaultRole);
  }

  /** Whether this entry is the H1 pass. */
  get isH1(): boolean {
    return this.section === null;
  }

  /** The origin every effect of this entry carries. */
  get origin(): EffectOrigin {
    return {
      execution: this.ctx.options.execution,
      chain: this.chain.id,
      entry: this.id,
      section: this.name,
      task: this.chain.taskId,
    };
  }

  /** The next effect id of this entry: `{entry}/{n}`, n from 1. */
  nextEffectId(): string {
    return `${this.id}/${++this.effects}`;
  }
}
