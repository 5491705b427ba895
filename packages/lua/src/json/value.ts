/**
 * A plain JS model of decoded JSON, for tests and for the JS side of the Engine.
 */

import { decodeJson, decodeJsonLines } from "./decoder";
import { JSON_DECODE_LIMITS, type JsonDecodeLimits } from "./limits";
import type { JsonSink } from "./sink";

/**
 * A JSON value with Lua's number types kept apart: a `bigint` is an integer (a Lua integer,
 * always in the 64-bit range when decoded) and a `number` is a float, so `1` decodes to `1n` and
 * `1.0` to `1`. Arrays are JS arrays; objects are {@link JsonObject}s.
 */
export type JsonValue = null | boolean | bigint | number | string | JsonValue[] | JsonObject;

/**
 * A JSON object: a plain record whose members are all own properties, as `JSON.parse` makes
 * them (a `__proto__` member is an own property too, never the prototype).
 */
export interface JsonObject {
  [key: string]: JsonValue;
}

const utf8 = new TextDecoder("utf-8");
const encoder = new TextEncoder();

/** A JS string from the valid UTF-8 bytes `source[start, end)`, fast for short ASCII. */
function bytesToString(source: Uint8Array, start: number, end: number): string {
  if (end - start > 24) return utf8.decode(source.subarray(start, end));
  let s = "";
  for (let i = start; i < end; i++) {
    const c = source[i] as number;
    if (c >= 0x80) return utf8.decode(source.subarray(start, end));
    s += String.fromCharCode(c);
  }
  return s;
}

/** A {@link JsonSink} that builds {@link JsonValue}s; a repeated key keeps its last value. */
export class JsonValueBuilder implements JsonSink {
  private readonly stack: (JsonValue[] | JsonObject)[] = [];
  private top: JsonValue[] | JsonObject | undefined;
  private topIsArray = false;
  private pendingKey = "";
  private root: JsonValue = null;

  /** The value built so far (the complete document once decoding returns). */
  result(): JsonValue {
    return this.root;
  }

  private add(value: JsonValue): void {
    const top = this.top;
    if (top === undefined) this.root = value;
    else if (this.topIsArray) (top as JsonValue[]).push(value);
    else if (this.pendingKey !== "__proto__") (top as JsonObject)[this.pendingKey] = value;
    else
      Object.defineProperty(top, "__proto__", {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }

  private push(container: JsonValue[] | JsonObject, isArray: boolean): void {
    this.add(container);
    if (this.top !== undefined) this.stack.push(this.top);
    this.top = container;
    this.topIsArray = isArray;
  }

  private pop(): void {
    this.top = this.stack.pop();
    this.topIsArray = Array.isArray(this.top);
  }

  beginObject(): void {
    this.push({}, false);
  }

  key(source: Uint8Array, start: number, end: number): void {
    this.pendingKey = bytesToString(source, start, end);
  }

  endObject(): void {
    this.pop();
  }

  beginArray(): void {
    this.push([], true);
  }

  endArray(): void {
    this.pop();
  }

  string(source: Uint8Array, start: number, end: number): void {
    this.add(bytesToString(source, start, end));
  }

  integer(value: number | bigint): void {
    this.add(typeof value === "bigint" ? value : BigInt(value));
  }

  float(value: number): void {
    this.add(value);
  }

  boolean(value: boolean): void {
    this.add(value);
  }

  null(): void {
    this.add(null);
  }
}

function toBytes(text: Uint8Array | string): Uint8Array {
  return typeof text === "string" ? encoder.encode(text) : text;
}

/**
 * Decodes one JSON document into a {@link JsonValue}, with json.decode's rules and messages.
 * A JS string is encoded as UTF-8 first (a lone surrogate becomes U+FFFD).
 */
export function decodeJsonValue(
  text: Uint8Array | string,
  limits: JsonDecodeLimits = JSON_DECODE_LIMITS,
  functionName = "json.decode",
): JsonValue {
  const builder = new JsonValueBuilder();
  decodeJson(toBytes(text), builder, limits, functionName);
  return builder.result();
}

/** Decodes every value of JSON Lines text, with json.decode_lines' rules and messages. */
export function decodeJsonLinesValue(
  text: Uint8Array | string,
  limits: JsonDecodeLimits = JSON_DECODE_LIMITS,
  functionName = "json.decode_lines",
): JsonValue[] {
  const builder = new JsonValueBuilder();
  decodeJsonLines(toBytes(text), builder, limits, functionName);
  return builder.result() as JsonValue[];
}
