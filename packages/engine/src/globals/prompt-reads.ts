import type { ProseSegment, Section } from "@runvil/parser";
import type { SubstitutionKind } from "@runvil/protocol";
import { argumentError, type HostCall, type HostFunction, type LuaValue } from "../lua";
import { parseProseTemplate, substitutionMessage, templateForLua } from "../prose/template";
import { keyText } from "../tools/tool-failures";
import { namespaceReadOnlyMessage } from "../tools/tool-messages";
import type { Entry } from "../walk/entry";
import { SECTION_TARGET_NOT_STRING, sectionNotFoundMessage } from "../walk/heading-reference";
import { engineLuaBytecode } from "./engine-lua";
import { promptReadsLuaBytecode } from "./prompt-reads-lua";

/** The two reads, as their messages name them (`prompt.section`, `prompt.list`). */
export type PromptRead = "section" | "list";

/** More than two arguments. */
export function promptReadTakesMessage(read: PromptRead): string {
  return `prompt.${read} takes (section, options?)`;
}

/** An options argument that is neither nil nor a table. */
export function promptOptionsTypeMessage(read: PromptRead, type: string): string {
  return `prompt.${read} options must be a table, got ${type}`;
}

/** An options key other than `raw` (named as json.encode names option keys). */
export function promptUnknownOptionMessage(read: PromptRead, key: string): string {
  return `prompt.${read}: unknown option ${key}; the only option is raw`;
}

/** A `raw` option that is not a boolean. */
export function promptRawOptionMessage(read: PromptRead, type: string): string {
  return `prompt.${read}: option raw must be a boolean, got ${type}`;
}

/** prompt.list of a section whose prose holds no root-level Markdown list. */
export function promptNoListMessage(reference: string): string {
  return `prompt.list: section \`${reference}\` has no list; it reads the items of a Markdown list in the section's prose`;
}

const SUBSTITUTION_KINDS: ReadonlySet<string> = new Set<SubstitutionKind>([
  "MissingKey",
  "NullValue",
  "Recursive",
  "NotText",
]);

/** A section's own prose segments, in file order (its Lua blocks left out). */
function proseOf(section: Section): ProseSegment[] {
  return section.items.filter((item): item is ProseSegment => item.kind === "prose");
}

/** `prompt.section`'s text: the section's prose segments joined with one blank line. */
export function sectionProse(section: Section): string {
  return proseOf(section)
    .map((segment) => segment.text)
    .join("\n\n");
}

/** `prompt.list`'s items: those of every root-level list of the section's prose, in order. */
export function sectionListItems(section: Section): string[] {
  return proseOf(section).flatMap((segment) => segment.listItems.map((item) => item.text));
}

/** A section's texts and their templates as the Lua side renders them, worked out once. */
interface SectionReads {
  readonly prose: string;
  readonly proseTemplate: LuaValue;
  readonly items: readonly string[];
  readonly itemTemplates: readonly LuaValue[];
}

const reads = new WeakMap<Section, SectionReads>();

function readsOf(section: Section): SectionReads {
  let found = reads.get(section);
  if (found === undefined) {
    const prose = sectionProse(section);
    const items = sectionListItems(section);
    found = {
      prose,
      proseTemplate: templateForLua(parseProseTemplate(prose)),
      items,
      itemTemplates: items.map((item) => templateForLua(parseProseTemplate(item))),
    };
    reads.set(section, found);
  }
  return found;
}

function readName(call: HostCall, index: number): PromptRead {
  return call.text(index) === "list" ? "list" : "section";
}

/** The message of a refusal the Lua side raises through `H('fail', what, ...)`. */
function failureMessage(call: HostCall): string {
  const what = call.text(2);
  const read = readName(call, 3);
  const text = (index: number): string => call.text(index) ?? "";
  switch (what) {
    case "takes":
      return promptReadTakesMessage(read);
    case "target":
      return SECTION_TARGET_NOT_STRING;
    case "options":
      return promptOptionsTypeMessage(read, text(4));
    case "unknown_option":
      return promptUnknownOptionMessage(read, text(4));
    case "raw_option":
      return promptRawOptionMessage(read, text(4));
    case "read_only":
      return namespaceReadOnlyMessage("prompt", keyText(call, 3));
    default:
      throw new Error(`unknown prompt read failure ${String(what)}`);
  }
}

/**
 * The read itself (`H('read', read, target, raw)`): the target resolved from the reading entry's
 * section as `call` resolves it, then the text (raw) or its template for the Lua side to render:
 * one for `section`, one per item for `list`. The templates are parsed once per section (the
 * prompt never changes); every read renders again.
 */
function readSection(entry: Entry, call: HostCall): LuaValue[] {
  const { ctx } = entry;
  const read = readName(call, 2);
  const target = call.text(3) ?? "";
  const raw = call.boolean(4);
  const index = ctx.tree.resolve(target, entry.section);
  const section = index === null ? undefined : ctx.prompt.sections[index];
  if (section === undefined) throw argumentError(sectionNotFoundMessage(target));
  const texts = readsOf(section);
  if (read === "section") return [raw ? texts.prose : texts.proseTemplate];
  if (texts.items.length === 0) throw argumentError(promptNoListMessage(section.reference));
  return [raw ? texts.items : texts.itemTemplates];
}

/**
 * The host side of the prompt reads for one entry (a section entry or the H1 pass): `H(op, ...)`.
 * lazy-globals.lua asks for it on the first use of `prompt`. `prompt.section` and `prompt.list`
 * never suspend.
 */
export function promptHost(entry: Entry): HostFunction {
  const { ctx } = entry;
  return (call) => {
    switch (call.text(1)) {
      case "read":
        return readSection(entry, call);
      case "render_fail": {
        const kind = call.text(2) ?? "";
        if (!SUBSTITUTION_KINDS.has(kind)) throw new Error(`unknown substitution kind ${kind}`);
        ctx.emit(entry.source, "prose_render_failed", { substitution: kind as SubstitutionKind });
        throw argumentError(
          substitutionMessage(
            kind as SubstitutionKind,
            call.text(3) ?? "",
            call.text(4) ?? undefined,
          ),
        );
      }
      case "fail":
        throw argumentError(failureMessage(call));
      case "code":
        return call.text(2) === "prose"
          ? [engineLuaBytecode(ctx.runtime).parts.prose]
          : [promptReadsLuaBytecode(ctx.runtime).impl];
      default:
        throw new Error(`unknown prompt read operation ${String(call.text(1))}`);
    }
  };
}
