import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter } from "yaml";
import type { KeyPath } from "./key-path";

/** Finds the YAML line of a key path in a parsed document, following aliases and merge keys. */
export class YamlLines {
  constructor(
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /**
   * The 1-based line of the key (for a map entry) or item (for a list entry) at `path`. When
   * the path leaves the document (a missing key), the line of the deepest part that exists.
   */
  lineOf(path: KeyPath): number | undefined {
    let node: unknown = this.doc.contents;
    let line = this.lineAt(node);
    for (const segment of path) {
      const found = this.step(this.resolve(node), segment);
      if (found === undefined) return line;
      line = this.lineAt(found.at) ?? line;
      node = found.node;
    }
    return line;
  }

  /** The 1-based start line of each item of the list at `path` (empty when it is no list). */
  itemLines(path: KeyPath): number[] {
    let node: unknown = this.doc.contents;
    for (const segment of path) {
      node = this.step(this.resolve(node), segment)?.node;
      if (node === undefined) return [];
    }
    node = this.resolve(node);
    if (!isSeq(node)) return [];
    return node.items.map((item) => this.lineAt(item) ?? 0);
  }

  /** The 1-based line of a source offset. */
  lineOfOffset(offset: number): number {
    return this.lineCounter.linePos(offset).line;
  }

  private step(
    node: unknown,
    segment: string | number,
  ): { at: unknown; node: unknown } | undefined {
    if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment];
      return item === undefined ? undefined : { at: item, node: item };
    }
    if (!isMap(node) || typeof segment !== "string") return undefined;
    for (const pair of node.items) {
      if (isScalar(pair.key) && pair.key.value === segment)
        return { at: pair.key, node: pair.value };
    }
    for (const pair of node.items) {
      if (!isScalar(pair.key) || typeof pair.key.value !== "symbol") continue;
      const merged = this.resolve(pair.value);
      const sources = isSeq(merged) ? merged.items : [merged];
      for (const source of sources) {
        const found = this.step(this.resolve(source), segment);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  }

  private resolve(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  private lineAt(node: unknown): number | undefined {
    if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
    const range = node.range;
    if (!Array.isArray(range) || typeof range[0] !== "number") return undefined;
    return this.lineOfOffset(range[0]);
  }
}
