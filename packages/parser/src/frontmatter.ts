import { isMap, isScalar, LineCounter, type Pair, parseDocument } from "yaml";
import { checkArgs } from "./args";
import { checkBudget } from "./budget";
import { type Checked, failed, frontmatterError, thrownText } from "./errors";
import type { FrontmatterFence } from "./frontmatter-fence";
import { checkModels } from "./models";
import type { Frontmatter } from "./types";
import { checkUses } from "./uses";
import {
  describeNode,
  keyText,
  positionAt,
  positionOf,
  resolveNode,
  stringValue,
  type YamlSource,
} from "./yaml-nodes";

/** The frontmatter keys, in the order messages list them. */
export const FRONTMATTER_KEYS = [
  "name",
  "description",
  "runvil",
  "uses",
  "models",
  "args",
  "budget",
] as const;

/** The keys a prompt must set. */
const REQUIRED_KEYS = ["name", "description", "runvil"] as const;

type FrontmatterKey = (typeof FRONTMATTER_KEYS)[number];

function isFrontmatterKey(key: string): key is FrontmatterKey {
  return (FRONTMATTER_KEYS as readonly string[]).includes(key);
}

/**
 * Parses and checks the frontmatter's YAML. Every message starts `invalid frontmatter: ` and
 * ends with the absolute line (a malformed uses: entry also names the column; a repeated Pack id
 * names neither). Keys are checked in the order written, then the required ones that are
 * missing, in the order name, description, runvil. Never throws.
 */
export function checkFrontmatter(fence: FrontmatterFence): Checked<Frontmatter> {
  const counter = new LineCounter();
  let source: YamlSource;
  try {
    const doc = parseDocument(fence.yaml, {
      lineCounter: counter,
      prettyErrors: false,
      uniqueKeys: true,
    });
    source = { doc, counter, lineOffset: 1, fallbackLine: 1 };
    const yamlError = doc.errors[0];
    if (yamlError !== undefined) {
      const line = Math.min(positionAt(source, yamlError.pos[0]).line, fence.closeLine);
      return failed(frontmatterError(`invalid YAML: ${firstLine(yamlError.message)}`, line));
    }
  } catch (thrown) {
    return failed(frontmatterError(`invalid YAML: ${firstLine(thrownText(thrown))}`, 1));
  }
  return checkKeys(source, fence);
}

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end === -1 ? text : text.slice(0, end);
}

function checkKeys(source: YamlSource, fence: FrontmatterFence): Checked<Frontmatter> {
  const contents = source.doc.contents;
  const top = contents === null ? undefined : resolveNode(source, contents);
  const isEmpty = top === undefined || (isScalar(top) && top.value === null);
  if (!isEmpty && !isMap(top)) {
    return failed(
      frontmatterError(
        `the frontmatter must be a mapping of keys, such as \`name: my-prompt\`, found ${describeNode(top)}`,
        positionOf(source, top).line,
      ),
    );
  }
  const frontmatter: Frontmatter = {
    startLine: 1,
    endLine: fence.closeLine,
    name: "",
    description: "",
    runvil: 0,
    uses: [],
    models: [],
    args: [],
  };
  const seen = new Set<FrontmatterKey>();
  const pairs: Pair[] = isMap(top) ? top.items : [];
  for (const pair of pairs) {
    const keyLine = positionOf(source, pair.key).line;
    const key = stringValue(resolveNode(source, pair.key));
    if (key === undefined || !isFrontmatterKey(key)) {
      return failed(
        frontmatterError(
          `unknown key \`${keyText(source, pair.key)}\`; the known keys are ${FRONTMATTER_KEYS.join(", ")}`,
          keyLine,
        ),
      );
    }
    seen.add(key);
    const checked = checkKey(source, key, pair.value, keyLine, frontmatter);
    if (!checked.ok) return checked;
  }
  for (const key of REQUIRED_KEYS) {
    if (!seen.has(key)) {
      return failed(frontmatterError(`missing required key \`${key}\``, 1));
    }
  }
  return { ok: true, value: frontmatter };
}

/** Checks one key's value and stores it in `frontmatter`. */
function checkKey(
  source: YamlSource,
  key: FrontmatterKey,
  value: unknown,
  keyLine: number,
  frontmatter: Frontmatter,
): Checked<true> {
  switch (key) {
    case "name":
    case "description": {
      const text = checkText(source, key, value, keyLine);
      if (!text.ok) return text;
      frontmatter[key] = text.value;
      return { ok: true, value: true };
    }
    case "runvil":
      return checkVersion(source, value, keyLine);
    case "uses": {
      const uses = checkUses(source, value, keyLine);
      if (!uses.ok) return uses;
      frontmatter.uses = uses.value;
      return { ok: true, value: true };
    }
    case "models": {
      const models = checkModels(source, value, keyLine);
      if (!models.ok) return models;
      frontmatter.models = models.value;
      return { ok: true, value: true };
    }
    case "args": {
      const args = checkArgs(source, value, keyLine);
      if (!args.ok) return args;
      frontmatter.args = args.value;
      return { ok: true, value: true };
    }
    case "budget": {
      const budget = checkBudget(source, value, keyLine);
      if (!budget.ok) return budget;
      frontmatter.budget = budget.value;
      return { ok: true, value: true };
    }
  }
}

/** `name` and `description`: non-blank strings. */
function checkText(
  source: YamlSource,
  key: string,
  value: unknown,
  keyLine: number,
): Checked<string> {
  const node = resolveNode(source, value);
  const text = stringValue(node);
  if (text === undefined) {
    return failed(
      frontmatterError(`\`${key}\` must be a string, found ${describeNode(node)}`, keyLine),
    );
  }
  if (text.trim() === "") {
    return failed(frontmatterError(`\`${key}\` must not be empty`, keyLine));
  }
  return { ok: true, value: text };
}

/** `runvil`: the prompt format version, the number 0. */
function checkVersion(source: YamlSource, value: unknown, keyLine: number): Checked<true> {
  const node = resolveNode(source, value);
  if (node !== undefined && isScalar(node) && typeof node.value === "number") {
    if (node.value === 0) return { ok: true, value: true };
    return failed(
      frontmatterError(
        `\`runvil\` must be 0, the prompt format version this Runvil reads, found ${node.value}`,
        keyLine,
      ),
    );
  }
  return failed(
    frontmatterError(
      `\`runvil\` must be the number 0 (the prompt format version), found ${describeNode(node)}`,
      keyLine,
    ),
  );
}
