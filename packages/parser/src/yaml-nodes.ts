import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  type Scalar,
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
    try {
      current = current.resolve(source.doc);
    } catch {
      return undefined;
    }
  }
  return undefined;
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
 * `models.writer`.
 */
export function toJson(source: YamlSource, node: unknown, path: string): Checked<JsonValue> {
  return convert(source, node, path, 0);
}

function convert(
  source: YamlSource,
  raw: unknown,
  path: string,
  depth: number,
): Checked<JsonValue> {
  const line = positionOf(source, raw).line;
  if (depth > MAX_DEPTH) {
    return failed(
      frontmatterError(`\`${path}\` is nested more than ${MAX_DEPTH} levels deep`, line),
    );
  }
  const node = resolveNode(source, raw);
  if (node === undefined) {
    if (raw === null || raw === undefined) return { ok: true, value: null };
    return failed(frontmatterError(`\`${path}\` uses an alias whose anchor is not defined`, line));
  }
  if (isSeq(node)) {
    const items: JsonValue[] = [];
    for (let i = 0; i < node.items.length; i++) {
      const item = convert(source, node.items[i], `${path}[${i}]`, depth + 1);
      if (!item.ok) return item;
      items.push(item.value);
    }
    return { ok: true, value: items };
  }
  if (isMap(node)) return convertMap(source, node, path, depth);
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
): Checked<JsonObject> {
  const entries: [string, JsonValue][] = [];
  for (const pair of node.items) {
    const key = stringValue(resolveNode(source, pair.key));
    if (key === undefined) {
      return failed(
        frontmatterError(
          `the keys of \`${path}\` must be strings, found ${describeNode(resolveNode(source, pair.key))}`,
          positionOf(source, pair.key).line,
        ),
      );
    }
    const value = convert(source, pair.value, `${path}.${key}`, depth + 1);
    if (!value.ok) return value;
    entries.push([key, value.value]);
  }
  // Object.fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return { ok: true, value: Object.fromEntries(entries) };
}
