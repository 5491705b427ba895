import { decodeValue, type JournalValue } from "@runvil/journal";

/** A JSON value as the inspector's API sends it. */
export type PlainValue =
  | null
  | boolean
  | number
  | string
  | readonly PlainValue[]
  | { readonly [key: string]: PlainValue };

const utf8 = new TextDecoder("utf-8", { fatal: true });

function bytesText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return `<${bytes.byteLength} bytes, not UTF-8>`;
  }
}

/**
 * A journal value as plain JSON for display: a Lua string's bytes as text (or a note of their
 * size when they are not UTF-8), a bigint as its decimal text, undefined as null.
 */
export function plainValue(value: JournalValue): PlainValue {
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return bytesText(value);
  if (Array.isArray(value)) return value.map((item: JournalValue) => plainValue(item));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, PlainValue> = {};
    for (const [key, item] of Object.entries(value)) out[key] = plainValue(item);
    return out;
  }
  return value as PlainValue;
}

/** The plain value of a journal text (a request, an output, a result). */
export function plainOf(text: string | undefined): PlainValue {
  return text === undefined ? null : plainValue(decodeValue(text) as JournalValue);
}

/** The value as an object, or an empty one. */
export function fieldsOf(value: unknown): Readonly<Record<string, PlainValue>> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, PlainValue>)
    : {};
}

/** The value as text: a string as it is, anything else as JSON ("" for null or absent). */
export function textOf(value: PlainValue | undefined): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
