/**
 * The journal's value codec: JSON text for the values that cross the effect port, which JSON
 * alone cannot hold — the raw bytes of a Lua string that is not UTF-8 (`Uint8Array`), bigints,
 * `undefined` (a store write's output) — with object keys sorted, so two equal requests always
 * encode to the same text and a replay compares requests as text (docs/design/journal.md);
 * outputs keep their key order ({@link encodeOutput}).
 *
 * Tags are one-key objects: `{"$bytes": base64}`, `{"$bigint": "12"}`, `{"$undefined": true}`;
 * an object of the program's own whose keys start with `$` is wrapped as `{"$object": {...}}`,
 * so no value of a run can pass for a tag.
 */

/** A value the codec encodes. */
export type JournalValue =
  | null
  | boolean
  | number
  | string
  | bigint
  | undefined
  | Uint8Array
  | readonly JournalValue[]
  | { readonly [key: string]: JournalValue };

function isTagLike(record: Record<string, unknown>): boolean {
  for (const key in record) if (key.charCodeAt(0) === 36) return true; // "$"
  return false;
}

function toJsonValue(value: unknown, sorted = true): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new TypeError(`the journal cannot encode the number ${value}`);
    return value;
  }
  if (value === undefined) return { $undefined: true };
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Uint8Array)
    return {
      $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64"),
    };
  if (Array.isArray(value)) return value.map((item) => toJsonValue(item, sorted));
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const keys = Object.keys(record);
    for (const key of sorted ? keys.sort() : keys) {
      const item = record[key];
      // An absent optional field and an explicit undefined field mean the same to the port.
      if (item !== undefined) out[key] = toJsonValue(item, sorted);
    }
    return isTagLike(out) ? { $object: out } : out;
  }
  throw new TypeError(`the journal cannot encode a value of type ${typeof value}`);
}

/** Whether a key is one V8 orders before the others (an array index, like "0" or "12"). */
function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

/** The keys in code unit order; an insertion sort, as objects crossing the port are small. */
function sortedKeys(record: Record<string, unknown>): string[] | undefined {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j -= 1;
    }
    keys[j + 1] = key;
  }
  for (const key of keys) if (startsWithDigit(key)) return undefined;
  return keys;
}

/**
 * The encoding of {@link toJsonValue}'s copy, written directly as text (no copy). An object with
 * a key that starts with a digit takes the copy: JSON.stringify puts array-index keys first.
 */
function encode(value: unknown, sorted: boolean): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value))
        throw new TypeError(`the journal cannot encode the number ${value}`);
      return String(value);
    case "undefined":
      return '{"$undefined":true}';
    case "bigint":
      return `{"$bigint":"${value.toString()}"}`;
    case "object":
      break;
    default:
      throw new TypeError(`the journal cannot encode a value of type ${typeof value}`);
  }
  if (value === null) return "null";
  if (value instanceof Uint8Array) return JSON.stringify(toJsonValue(value));
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      const item: unknown = value[i];
      // A hole is null in JSON (the copy keeps holes).
      text += item === undefined && !(i in value) ? "null" : encode(item, sorted);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // Unsorted, the keys are in the order V8 keeps (array-index keys first), as JSON.stringify and
  // JSON.parse keep them.
  const keys = sorted ? sortedKeys(record) : Object.keys(record);
  if (keys === undefined) return JSON.stringify(toJsonValue(value));
  let text = "{";
  let tagLike = false;
  for (const key of keys) {
    const item = record[key];
    // An absent optional field and an explicit undefined field mean the same to the port.
    if (item === undefined) continue;
    if (text.length > 1) text += ",";
    if (key.charCodeAt(0) === 36) tagLike = true; // "$"
    text += `${JSON.stringify(key)}:${encode(item, sorted)}`;
  }
  text += "}";
  return tagLike ? `{"$object":${text}}` : text;
}

/** Encodes a value as the journal's JSON text (keys sorted, tags for bytes, bigints, undefined). */
export function encodeValue(value: unknown): string {
  return encode(value, true);
}

/**
 * Encodes an effect's output like {@link encodeValue} but keeps each object's keys in their
 * order: a replay hands the decoded output to the Engine, which shows it (a model's tool call
 * arguments in the `assistant_tool_calls` event, in a message), so the order is part of it.
 */
export function encodeOutput(value: unknown): string {
  return encode(value, false);
}

/** The encoding by way of a copy JSON.stringify writes: what {@link encodeValue} must equal. */
export function encodeValueByCopy(value: unknown): string {
  return JSON.stringify(toJsonValue(value));
}

function fromJsonValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(fromJsonValue);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1) {
    const key = keys[0] as string;
    const item = record[key];
    if (key === "$bytes" && typeof item === "string")
      return new Uint8Array(Buffer.from(item, "base64"));
    if (key === "$bigint" && typeof item === "string") return BigInt(item);
    if (key === "$undefined") return undefined;
    if (key === "$object" && typeof item === "object" && item !== null) {
      return decodeFields(item as Record<string, unknown>);
    }
  }
  return decodeFields(record);
}

function decodeFields(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) out[key] = fromJsonValue(record[key]);
  return out;
}

/** Decodes the journal's JSON text; throws a SyntaxError for text that is not JSON. */
export function decodeValue(text: string): unknown {
  return fromJsonValue(JSON.parse(text));
}
