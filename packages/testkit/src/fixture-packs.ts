import { type PackDefinition, type ToolDefinition, ToolFailure } from "@runvil/sdk";
import type { FixtureTool, ScenarioHost } from "./scenario-types";

/** The vendor of the official Packs, and of every fixture Pack that is not `declared`. */
export const RUNVIL_VENDOR = "runvil";

/** The description of a Pack the scenario creates (fixture tools, a prelude, `unavailable`). */
export function fixturePackDescription(id: string): string {
  return `The scenario's fixture Pack ${id}.`;
}

/**
 * The tool a `host.fixture_tools` entry describes: its id, description and parameters as
 * given (a non-object schema stays as written, so the Host leaves the tool out of the
 * offering), output `structured` or `plain`, trust `trusted` or `untrusted`. `returns` answers
 * every call with its text verbatim (for a structured tool, the JSON text the Engine parses);
 * `fails` throws `ToolFailure(message)`.
 */
export function fixtureToolDefinition(tool: FixtureTool): ToolDefinition {
  const { behaviour } = tool;
  return {
    id: tool.id,
    description: tool.description,
    parameters: tool.parameters,
    output: tool.structured ? "structured" : "plain",
    trust: tool.trusted ? "trusted" : "untrusted",
    run: () => {
      if (behaviour.kind === "fails") throw new ToolFailure(behaviour.message);
      return behaviour.text;
    },
  };
}

interface PackDraft {
  vendor: string;
  name: string;
  description: string;
  services?: readonly string[];
  prelude?: string;
  tools: ToolDefinition[];
  start?: () => void | Promise<void>;
}

/**
 * The Packs of a scenario Host: the `official` Packs it serves, with the case's fixtures laid
 * over them.
 *
 * - Each `host.fixture_tools` entry joins the Pack named by its id's first segment: vendor
 *   `runvil` unless `declared` (then its `vendor`, default `fixture`, so the prompt must
 *   declare `{vendor}/{pack}` for the Pack to be in the run). A fixture tool whose Pack has the
 *   full name of an official Pack is merged into it; one with the id of an official tool
 *   replaces that tool.
 * - Each `host.fixture_preludes` entry gives the runvil Pack of that id its prelude (creating
 *   a Pack without tools when none has the id; replacing an official Pack's own prelude).
 * - Each `host.unavailable` entry makes every Pack of that id fail to start with the reason, so
 *   the Host reports it unable to serve; with no Pack of that id, an empty runvil Pack is added
 *   to carry the reason.
 *
 * The official Pack objects are never changed: a Pack with fixtures laid over it is a copy.
 */
export function scenarioPacks(
  host: ScenarioHost,
  official: readonly PackDefinition[],
): PackDefinition[] {
  const drafts = new Map<string, PackDraft>();
  for (const pack of official) drafts.set(fullName(pack.vendor, pack.name), copyOf(pack));
  const draftFor = (vendor: string, name: string): PackDraft => {
    const key = fullName(vendor, name);
    let draft = drafts.get(key);
    if (draft === undefined) {
      draft = { vendor, name, description: fixturePackDescription(name), tools: [] };
      drafts.set(key, draft);
    }
    return draft;
  };

  for (const tool of host.fixtureTools) {
    const draft = draftFor(tool.declared ? tool.vendor : RUNVIL_VENDOR, tool.packId);
    const definition = fixtureToolDefinition(tool);
    const at = draft.tools.findIndex((existing) => existing.id === tool.id);
    if (at >= 0) draft.tools[at] = definition;
    else draft.tools.push(definition);
  }
  for (const [id, source] of Object.entries(host.fixturePreludes)) {
    draftFor(RUNVIL_VENDOR, id).prelude = source;
  }
  for (const [id, reason] of Object.entries(host.unavailable)) {
    const matching = [...drafts.values()].filter((draft) => draft.name === id);
    const targets = matching.length > 0 ? matching : [draftFor(RUNVIL_VENDOR, id)];
    for (const draft of targets) {
      draft.start = () => {
        throw new Error(reason);
      };
    }
  }
  return [...drafts.values()].map(toPack);
}

function fullName(vendor: string, name: string): string {
  return `${vendor}/${name}`;
}

function copyOf(pack: PackDefinition): PackDraft {
  const draft: PackDraft = {
    vendor: pack.vendor,
    name: pack.name,
    description: pack.description,
    tools: [...pack.tools],
  };
  if (pack.services !== undefined) draft.services = pack.services;
  if (pack.prelude !== undefined) draft.prelude = pack.prelude;
  if (pack.start !== undefined) draft.start = pack.start.bind(pack);
  return draft;
}

function toPack(draft: PackDraft): PackDefinition {
  return { ...draft, tools: [...draft.tools] };
}
