/**
 * json.encode's rules applied to the JS model ({@link JsonValue}): the reference walk over the
 * writer, used by the JS side of the Engine and by tests.
 */

import { JsonEncodeBudget } from "./budget";
import { type JsonEncodeLimits, jsonEncodeLimits } from "./limits";
import {
  containsItselfMessage,
  DEBUG_PLACEHOLDERS,
  JsonEncodeError,
  keyNotValidUtf8Message,
  mustBeJsonDataMessage,
  nestedTooDeepMessage,
  notFiniteMessage,
  notValidUtf8Message,
  outsideInt64Message,
} from "./messages";
import { isInt64, nonFiniteText } from "./number-text";
import { formatJsonPath, type JsonPathStep } from "./path";
import { compareUtf8Order } from "./utf8";
import type { JsonObject, JsonValue } from "./value";
import { JsonWriter } from "./writer";

/** Options of {@link encodeJsonValue} and {@link encodeJsonLinesValue}. */
export interface JsonEncodeValueOptions {
  /** Debug mode: placeholders instead of refusals, except the size refusal. */
  readonly debug?: boolean;
  /** Depth limit and size budget (default: those of a 64 MiB Lua memory limit). */
  readonly limits?: JsonEncodeLimits;
  /** The function named in messages (`json.encode` / `json.encode_lines` by default). */
  readonly functionName?: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Sorts object keys in UTF-8 byte order. The native sort compares UTF-16 code units, which
 * agrees with byte order unless a key holds a surrogate, so only then the slower comparator runs.
 */
function sortKeys(keys: string[]): string[] {
  keys.sort();
  for (const key of keys) {
    if (SURROGATE.test(key)) return keys.sort(compareUtf8Order);
  }
  return keys;
}

class ModelWalker {
  private readonly fn: string;
  private readonly debug: boolean;
  private readonly maxDepth: number;
  private readonly budget: JsonEncodeBudget;
  /** The tables on the current path (at most 128, so a linear scan beats a Set). */
  private readonly ancestors: object[] = [];
  readonly path: JsonPathStep[] = [];
  readonly writer: JsonWriter;

  constructor(fn: string, options: JsonEncodeValueOptions) {
    const limits = options.limits ?? jsonEncodeLimits();
    this.fn = fn;
    this.debug = options.debug === true;
    this.maxDepth = limits.maxDepth;
    this.budget = new JsonEncodeBudget(limits, fn);
    this.writer = new JsonWriter({ debug: this.debug });
  }

  private refuse(message: (fn: string, path: string) => string): never {
    throw new JsonEncodeError(message(this.fn, formatJsonPath(this.path)));
  }

  /** Spends the list itself and keeps it on the cycle path (json.encode_lines). */
  enterList(list: object): void {
    this.budget.spendValue();
    this.ancestors.push(list);
  }

  visit(value: JsonValue, level: number): void {
    const writer = this.writer;
    this.budget.spendValue();
    if (value === null) {
      writer.null();
    } else if (typeof value === "boolean") {
      writer.boolean(value);
    } else if (typeof value === "bigint") {
      if (isInt64(value)) writer.integer(value);
      else if (this.debug) writer.float(Number(value));
      else this.refuse(outsideInt64Message);
    } else if (typeof value === "number") {
      if (!writer.float(value)) {
        const text = nonFiniteText(value);
        this.refuse((fn, path) => notFiniteMessage(fn, path, text));
      }
    } else if (typeof value === "string") {
      if (!writer.string(value)) this.refuse(notValidUtf8Message);
      this.budget.spendStringBytes(writer.lastStringBytes);
    } else if (typeof value === "object") {
      this.visitTable(value, level);
    } else {
      const type = typeof value;
      if (this.debug)
        writer.string(type === "function" ? DEBUG_PLACEHOLDERS.function : `[${type}]`);
      else this.refuse((fn, path) => mustBeJsonDataMessage(fn, path, type));
    }
  }

  private visitTable(table: JsonValue[] | JsonObject, level: number): void {
    const writer = this.writer;
    if (this.ancestors.includes(table)) {
      if (this.debug) writer.string(DEBUG_PLACEHOLDERS.cycle);
      else this.refuse(containsItselfMessage);
      return;
    }
    if (level > this.maxDepth) {
      if (this.debug) writer.string(DEBUG_PLACEHOLDERS.tooDeep);
      else this.refuse((fn, path) => nestedTooDeepMessage(fn, path, this.maxDepth));
      return;
    }
    this.ancestors.push(table);
    const path = this.path;
    if (Array.isArray(table)) {
      writer.beginArray();
      for (let i = 0; i < table.length; i++) {
        path.push(i + 1);
        this.visit(table[i] as JsonValue, level + 1);
        path.pop();
      }
      writer.endArray();
    } else {
      const keys = sortKeys(Object.keys(table));
      if (!this.debug) {
        for (const key of keys) {
          if (!LONE_SURROGATE.test(key)) continue;
          path.push(key);
          this.refuse(keyNotValidUtf8Message);
        }
      }
      this.budget.enterKeys(keys.length);
      writer.beginObject();
      for (const key of keys) {
        writer.key(key);
        this.budget.spendStringBytes(writer.lastStringBytes);
        path.push(key);
        this.visit(table[key] as JsonValue, level + 1);
        path.pop();
      }
      writer.endObject();
      this.budget.leaveKeys(keys.length);
    }
    this.ancestors.pop();
  }
}

/**
 * Encodes a {@link JsonValue} as compact JSON by json.encode's rules: keys sorted in UTF-8 byte
 * order, floats by `formatJsonNumber`, strings escaped by {@link JsonWriter}, nesting limited to
 * 127 levels (the value passed is level 1), cycles refused, the size budget spent. Refusals throw
 * {@link JsonEncodeError} with the chapter's messages and paths; debug mode writes placeholders.
 */
export function encodeJsonValue(value: JsonValue, options: JsonEncodeValueOptions = {}): string {
  const walker = new ModelWalker(options.functionName ?? "json.encode", options);
  walker.visit(value, 1);
  return walker.writer.text();
}

/**
 * Encodes each item as one JSON Lines record ending in `\n`, as json.encode_lines does: an
 * empty list gives "", items share one size budget (the list counts as a value), item paths read
 * `value[2].name`, the list stays on the cycle path, and each item starts again at level 1.
 */
export function encodeJsonLinesValue(
  values: readonly JsonValue[],
  options: JsonEncodeValueOptions = {},
): string {
  const walker = new ModelWalker(options.functionName ?? "json.encode_lines", options);
  walker.enterList(values);
  for (let i = 0; i < values.length; i++) {
    walker.path.push(i + 1);
    walker.visit(values[i] as JsonValue, 1);
    walker.path.pop();
    walker.writer.endRecord();
  }
  return walker.writer.text();
}
