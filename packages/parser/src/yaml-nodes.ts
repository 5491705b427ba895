import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  type Scalar,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { type Checked, failed, frontmatterError } from "./errors";
import type { JsonObject, JsonValue } from "./types";

/** The parsed frontmatter document and how to turn its offsets into file positions. */
export interface YamlSource {
  /** The parsed YAML document (aliases resolve against it). */
  doc: Document;
  /** Line starts of the YAML text. */
  counter: LineCounter;
  /** File line of the YAML text's line 1 minus one (1: the YAML starts on file line 2). */
  lineOffset: number;
  /** File line to report when a node has no position (the opening `---`). */
  fallbackLine: number;
}

/** A YAML node after alias resolution. */
export type ValueNode = Scalar | YAMLMap | YAMLSeq;

/** An absolute file position. */
export interface FilePosition {
  line: number;
  column: number;
}

/** Nesting depth past which JSON conversion stops (also ends alias cycles). */
const MAX_DEPTH = 64;
/** Alias hops followed in a row before giving up. */
const MAX_ALIAS_HOPS = 64;

/**
 * The most that aliases may add to the frontmatter's data, in values and string characters
 * (docs/design/prompt-format.md): every use of an alias costs what its anchor's value expands
 * to, each scalar, list and mapping 1 and each string its length on top.
 */
export const MAX_ALIAS_EXPANSION = 100_000;

/** What the helpers know about one document's aliases, worked out once per document. */
interface AliasIndex {
  /** The node each alias stands for (undefined: no anchor of that name before the alias). */
  readonly targets: Map<Alias, Node | undefined>;
  /** The expanded size of nodes already measured ({@link MAX_ALIAS_EXPANSION}'s units). */
  readonly sizes: Map<unknown, number>;
  /** What aliases have added so far to the data converted from this document. */
  spent: number;
}

const ALIAS_INDEXES = new WeakMap<Document, AliasIndex>();

/**
 * The document's alias index: each alias resolved in one pass over the document, as the YAML
 * library resolves it (the last node with that anchor before the alias, in document order).
 * `Alias.resolve` walks the whole document at every call, which a frontmatter holding many
 * aliases would turn into quadratic time.
 */
function aliasIndex(doc: Document): AliasIndex {
  let index = ALIAS_INDEXES.get(doc);
  if (index === undefined) {
    const targets = new Map<Alias, Node | undefined>();
    const anchored = new Map<string, Node>();
    visit(doc, {
      Node(_key, node) {
        if (isAlias(node)) targets.set(node, anchored.get(node.source));
        else if (typeof node.anchor === "string") anchored.set(node.anchor, node);
      },
    });
    index = { targets, sizes: new Map(), spent: 0 };
    ALIAS_INDEXES.set(doc, index);
  }
  return index;
}

/** File position of a YAML offset. */
export function positionAt(source: YamlSource, offset: number): FilePosition {
  const { line, col } = source.counter.linePos(offset);
  if (line < 1) return { line: source.fallbackLine, column: 1 };
  return { line: line + source.lineOffset, column: col };
}

/** File position where `node` starts, or the fallback line when it has none. */
export function positionOf(source: YamlSource, node: unknown): FilePosition {
  const range = isNodeWithRange(node) ? node.range : undefined;
  if (range === undefined || range === null) return { line: source.fallbackLine, column: 1 };
  return positionAt(source, range[0]);
}

function isNodeWithRange(node: unknown): node is Node {
  return isScalar(node) || isMap(node) || isSeq(node) || isAlias(node);
}

/**
 * Resolves aliases (`*anchor`) to the node they stand for. Returns undefined for a missing node
 * (a key with no value node at all) or an alias that resolves to nothing.
 */
export function resolveNode(source: YamlSource, node: unknown): ValueNode | undefined {
  let current: unknown = node;
  for (let hops = 0; hops <= MAX_ALIAS_HOPS; hops++) {
    if (isScalar(current) || isMap(current) || isSeq(current)) return current;
    if (!isAlias(current)) return undefined;
    current = aliasIndex(source.doc).targets.get(current);
  }
  return undefined;
}

/**
 * The size of `raw` with every alias expanded, in {@link MAX_ALIAS_EXPANSION}'s units, measured
 * without expanding anything: each node is measured once (iteratively, so deep nesting cannot
 * exhaust the stack). A value holding an alias to itself or to a value around it expands
 * without end: Infinity.
 */
function expandedSize(source: YamlSource, raw: unknown): number {
  const { sizes, targets } = aliasIndex(source.doc);
  const measuring = new Set<unknown>();
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    if (sizes.has(node)) {
      stack.pop();
      continue;
    }
    const children = childNodes(node, targets);
    if (!measuring.has(node)) {
      measuring.add(node);
      for (const child of children) {
        if (!sizes.has(child) && !measuring.has(child)) stack.push(child);
      }
      continue;
    }
    let size = isAlias(node) ? (targets.get(node) === undefined ? 1 : 0) : 1;
    if (isScalar(node) && typeof node.value === "string") size += node.value.length;
    for (const child of children) {
      // A child still being measured is a value around this one: a cycle.
      size += measuring.has(child) ? Number.POSITIVE_INFINITY : (sizes.get(child) ?? 0);
    }
    sizes.set(node, size);
    measuring.delete(node);
    stack.pop();
  }
  return sizes.get(raw) ?? 0;
}

/** The nodes `node` holds: an alias its anchor's node, a list its items, a mapping its keys and values. */
function childNodes(node: unknown, targets: Map<Alias, Node | undefined>): unknown[] {
  if (isAlias(node)) {
    const target = targets.get(node);
    return target === undefined ? [] : [target];
  }
  if (isSeq(node)) return node.items.filter(isNodeWithRange);
  if (isMap(node)) {
    const children: unknown[] = [];
    for (const pair of node.items) {
      if (isNodeWithRange(pair.key)) children.push(pair.key);
      if (isNodeWithRange(pair.value)) children.push(pair.value);
    }
    return children;
  }
  return [];
}

/**
 * Charges one use of `alias` to the document's alias budget: what its anchor's value expands to
 * ({@link expandedSize}). Fails when the uses so far take the frontmatter past
 * {@link MAX_ALIAS_EXPANSION}, naming `path` and the alias's line (an alias that expands without
 * end, into itself, fails as nested too deep). Call it before expanding the
 * alias, once per use and only for an alias outside every other alias's expansion (the outer
 * one's size already counts what is inside).
 */
export function chargeAlias(source: YamlSource, alias: Alias, path: string): Checked<true> {
  const index = aliasIndex(source.doc);
  const size = expandedSize(source, alias);
  if (size === Number.POSITIVE_INFINITY) {
    return failed(
      frontmatterError(
        `\`${path}\` is nested more than ${MAX_DEPTH} levels deep`,
        positionOf(source, alias).line,
      ),
    );
  }
  index.spent += size;
  if (index.spent <= MAX_ALIAS_EXPANSION) return { ok: true, value: true };
  return failed(
    frontmatterError(
      `\`${path}\` is an alias that takes the frontmatter past ${MAX_ALIAS_EXPANSION} values and characters of aliased data`,
      positionOf(source, alias).line,
    ),
  );
}

/** What a value is, for messages: `a string`, `a number`, `a list`, `null`, ... */
export function describeNode(node: ValueNode | undefined): string {
  if (node === undefined) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  return describeScalarValue(node.value);
}

function describeScalarValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : `${value}`;
  if (typeof value === "boolean") return "a boolean";
  if (value instanceof Uint8Array) return "binary data";
  return "a value of an unsupported type";
}

/** The string a scalar holds, or undefined for any other node or value. */
export function stringValue(node: ValueNode | undefined): string | undefined {
  if (node === undefined || !isScalar(node)) return undefined;
  return typeof node.value === "string" ? node.value : undefined;
}

/** The key of a mapping pair as text for messages (the scalar as written, else its kind). */
export function keyText(source: YamlSource, key: unknown): string {
  const node = resolveNode(source, key);
  if (node !== undefined && isScalar(node)) return String(node.value);
  return describeNode(node);
}

/**
 * Converts a YAML node to JSON data. Mapping keys must be strings; numbers must be finite;
 * binary and other non-JSON scalars are refused. `path` names the value in messages, such as
 * `models.writer`. Each alias met is charged to the document's alias budget before it is
 * expanded ({@link chargeAlias}), unless `withinAlias` says `node` is itself an alias's value.
 */
export function toJson(
  source: YamlSource,
  node: unknown,
  path: string,
  withinAlias = false,
): Checked<JsonValue> {
  return convert(source, node, path, 0, withinAlias);
}

function convert(
  source: YamlSource,
  raw: unknown,
  path: string,
  depth: number,
  withinAlias: boolean,
): Checked<JsonValue> {
  const line = positionOf(source, raw).line;
  if (depth > MAX_DEPTH) {
    return failed(
      frontmatterError(`\`${path}\` is nested more than ${MAX_DEPTH} levels deep`, line),
    );
  }
  let expanding = withinAlias;
  if (isAlias(raw) && !expanding) {
    const charged = chargeAlias(source, raw, path);
    if (!charged.ok) return charged;
    expanding = true;
  }
  const node = resolveNode(source, raw);
  if (node === undefined) {
    if (raw === null || raw === undefined) return { ok: true, value: null };
    return failed(frontmatterError(`\`${path}\` uses an alias whose anchor is not defined`, line));
  }
  if (isSeq(node)) {
    const items: JsonValue[] = [];
    for (let i = 0; i < node.items.length; i++) {
      const item = convert(source, node.items[i], `${path}[${i}]`, depth + 1, expanding);
      if (!item.ok) return item;
      items.push(item.value);
    }
    return { ok: true, value: items };
  }
  if (isMap(node)) return convertMap(source, node, path, depth, expanding);
  const value: unknown = node.value;
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === "string" || typeof value === "boolean") return { ok: true, value };
  if (typeof value === "number" && Number.isFinite(value)) return { ok: true, value };
  return failed(
    frontmatterError(`\`${path}\` must be JSON data, found ${describeScalarValue(value)}`, line),
  );
}

function convertMap(
  source: YamlSource,
  node: YAMLMap,
  path: string,
  depth: number,
  withinAlias: boolean,
): Checked<JsonObject> {
  const entries: [string, JsonValue][] = [];
  for (const pair of node.items) {
    if (isAlias(pair.key) && !withinAlias) {
      const charged = chargeAlias(source, pair.key, path);
      if (!charged.ok) return charged;
    }
    const key = stringValue(resolveNode(source, pair.key));
    if (key === undefined) {
      return failed(
        frontmatterError(
          `the keys of \`${path}\` must be strings, found ${describeNode(resolveNode(source, pair.key))}`,
          positionOf(source, pair.key).line,
        ),
      );
    }
    const value = convert(source, pair.value, `${path}.${key}`, depth + 1, withinAlias);
    if (!value.ok) return value;
    entries.push([key, value.value]);
  }
  // Object.fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return { ok: true, value: Object.fromEntries(entries) };
}
