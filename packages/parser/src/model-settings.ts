import { checkModelId, MODEL_ID_GRAMMAR } from "@runvil/names";
import { isScalar, isSeq } from "yaml";
import { type Checked, failed, frontmatterError } from "./errors";
import type { RoleSettings } from "./types";
import {
  describeNode,
  positionOf,
  resolveNode,
  stringValue,
  type ValueNode,
  type YamlSource,
} from "./yaml-nodes";

/** The settings a model role may carry, in the order messages list them. */
export const ROLE_SETTINGS = [
  "model",
  "system",
  "temperature",
  "max_output_tokens",
  "stop",
  "max_rounds",
] as const;

/** One setting name of a model role. */
export type RoleSettingName = (typeof ROLE_SETTINGS)[number];

/** Whether `key` is a setting a model role takes. */
export function isRoleSetting(key: string): key is RoleSettingName {
  return (ROLE_SETTINGS as readonly string[]).includes(key);
}

/** The most stop sequences a role may give. */
const MAX_STOP_SEQUENCES = 16;
/** The highest `max_rounds`. */
const MAX_ROUNDS_CAP = 10_000;

const OK: Checked<void> = { ok: true, value: undefined };

/**
 * Checks one setting of a role (`role` is `models.{label}`) and writes it into `settings`.
 * `line` is the line of the setting's key; a list item at fault names its own line.
 */
export function checkModelSetting(
  source: YamlSource,
  role: string,
  name: RoleSettingName,
  raw: unknown,
  line: number,
  settings: RoleSettings,
): Checked<void> {
  const path = `${role}.${name}`;
  const node = resolveNode(source, raw);
  switch (name) {
    case "model": {
      const ids = checkModelIds(source, path, node, line);
      if (!ids.ok) return ids;
      settings.model = ids.value;
      return OK;
    }
    case "system": {
      const text = stringValue(node);
      if (text === undefined || text === "") {
        return mustBe(path, "a non-empty string", foundString(node), line);
      }
      settings.system = text;
      return OK;
    }
    case "temperature": {
      const value = numberValue(node);
      if (value === undefined || !(value >= 0 && value <= 2)) {
        return mustBe(path, "a number from 0 to 2", foundNumber(node), line);
      }
      settings.temperature = value;
      return OK;
    }
    case "max_output_tokens": {
      const value = numberValue(node);
      if (value === undefined || !Number.isSafeInteger(value) || value < 1) {
        return mustBe(path, "a whole number of at least 1", foundNumber(node), line);
      }
      settings.maxOutputTokens = value;
      return OK;
    }
    case "stop": {
      const stop = checkStop(source, path, node, line);
      if (!stop.ok) return stop;
      settings.stop = stop.value;
      return OK;
    }
    case "max_rounds": {
      const value = numberValue(node);
      if (value === undefined || !Number.isInteger(value) || value < 1 || value > MAX_ROUNDS_CAP) {
        return mustBe(path, `a whole number from 1 to ${MAX_ROUNDS_CAP}`, foundNumber(node), line);
      }
      settings.maxRounds = value;
      return OK;
    }
  }
}

/** `model`: one catalog model id, or a non-empty list of them (most wanted first). */
function checkModelIds(
  source: YamlSource,
  path: string,
  node: ValueNode | undefined,
  line: number,
): Checked<string[]> {
  const expected = "a catalog model id or a non-empty list of them";
  if (node !== undefined && isSeq(node)) {
    if (node.items.length === 0) return mustBe(path, expected, "an empty list", line);
    const ids: string[] = [];
    for (const [index, raw] of node.items.entries()) {
      const itemPath = `${path}[${index}]`;
      const itemLine = positionOf(source, raw).line;
      const item = resolveNode(source, raw);
      const id = stringValue(item);
      if (id === undefined || id === "") {
        return mustBe(itemPath, "a catalog model id", foundString(item), itemLine);
      }
      const grammar = checkModelIdGrammar(itemPath, id, itemLine);
      if (!grammar.ok) return grammar;
      ids.push(id);
    }
    return { ok: true, value: ids };
  }
  const id = stringValue(node);
  if (id === undefined || id === "") return mustBe(path, expected, foundString(node), line);
  const grammar = checkModelIdGrammar(path, id, line);
  if (!grammar.ok) return grammar;
  return { ok: true, value: [id] };
}

function checkModelIdGrammar(path: string, id: string, line: number): Checked<void> {
  if (checkModelId(id).ok) return OK;
  return failed(
    frontmatterError(
      `\`${path}\` names \`${id}\`, which is not a catalog model id (${MODEL_ID_GRAMMAR})`,
      line,
    ),
  );
}

/** `stop`: one stop sequence, or a list of 1 to 16; each a non-empty string. */
function checkStop(
  source: YamlSource,
  path: string,
  node: ValueNode | undefined,
  line: number,
): Checked<string[]> {
  const expected = `a string or a list of 1 to ${MAX_STOP_SEQUENCES} non-empty strings`;
  if (node !== undefined && isSeq(node)) {
    if (node.items.length === 0) return mustBe(path, expected, "an empty list", line);
    if (node.items.length > MAX_STOP_SEQUENCES) {
      return mustBe(path, expected, `a list of ${node.items.length} items`, line);
    }
    const stop: string[] = [];
    for (const raw of node.items) {
      const item = resolveNode(source, raw);
      const text = stringValue(item);
      if (text === undefined || text === "") {
        const itemLine = positionOf(source, raw).line;
        return mustBe(path, expected, `a list holding ${foundString(item)}`, itemLine);
      }
      stop.push(text);
    }
    return { ok: true, value: stop };
  }
  const text = stringValue(node);
  if (text === undefined || text === "") return mustBe(path, expected, foundString(node), line);
  return { ok: true, value: [text] };
}

/** The number a scalar holds (finite or not), or undefined for anything else. */
function numberValue(node: ValueNode | undefined): number | undefined {
  if (node === undefined || !isScalar(node)) return undefined;
  return typeof node.value === "number" ? node.value : undefined;
}

/** What a value is, with `an empty string` told apart from other strings. */
function foundString(node: ValueNode | undefined): string {
  return stringValue(node) === "" ? "an empty string" : describeNode(node);
}

/** What a value is, with a number written out (`found 0`, `found 2.5`). */
function foundNumber(node: ValueNode | undefined): string {
  const value = numberValue(node);
  return value !== undefined && Number.isFinite(value) ? String(value) : describeNode(node);
}

function mustBe(path: string, expected: string, found: string, line: number): Checked<never> {
  return failed(frontmatterError(`\`${path}\` must be ${expected}, found ${found}`, line));
}
