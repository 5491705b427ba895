import { bench, describe } from "vitest";
import {
  decodeJson,
  decodeJsonValue,
  encodeJsonValue,
  type JsonSink,
  JsonWriter,
} from "../src/json/index";

/** A deterministic document of about `targetBytes` bytes, shaped like tool output. */
function makeDocument(targetBytes: number): string {
  const words = ["alpha", "beta", "gamma", "tides", "moon", "sea", "café", "naïve", "日本", "🌊"];
  const records: unknown[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const record = {
      id: i,
      name: `${words[i % words.length]} ${i}`,
      score: (i * 7919) / 113,
      big: 2 ** 53 + 2 * i,
      ok: i % 3 === 0,
      note: i % 5 === 0 ? null : `line one\nline "two" ${i}\t/end`,
      tags: [words[i % 7], words[(i + 3) % 10], `t${i % 13}`],
      nested: { depth: { level: i % 4, ratio: 0.5 + i / 1000, empty: [] } },
    };
    records.push(record);
    size += JSON.stringify(record).length + 1;
  }
  return JSON.stringify({ kind: "bench", count: records.length, records });
}

/** A sink that only counts events: the cost floor of streaming to the Lua layer. */
class CountingSink implements JsonSink {
  events = 0;
  beginObject(): void {
    this.events++;
  }
  key(): void {
    this.events++;
  }
  endObject(): void {
    this.events++;
  }
  beginArray(): void {
    this.events++;
  }
  endArray(): void {
    this.events++;
  }
  string(): void {
    this.events++;
  }
  integer(): void {
    this.events++;
  }
  float(): void {
    this.events++;
  }
  boolean(): void {
    this.events++;
  }
  null(): void {
    this.events++;
  }
}

const text = makeDocument(1_000_000);
const bytes = new TextEncoder().encode(text);
const model = decodeJsonValue(bytes);
const plain: unknown = JSON.parse(text);
const utf8 = new TextDecoder();
const tapeOps: Op[] = [];
const tapeHeap: number[] = [];
record(plain, tapeOps, tapeHeap);
const tape = { ops: tapeOps, heap: Uint8Array.from(tapeHeap) };

describe(`decode a ${bytes.length}-byte document`, () => {
  bench("runvil: decodeJson to a counting sink (what the Lua layer streams)", () => {
    decodeJson(bytes, new CountingSink());
  });

  bench("runvil: decodeJsonValue (JS model, bigint integers)", () => {
    decodeJsonValue(bytes);
  });

  bench("reference: JSON.parse(TextDecoder.decode(bytes))", () => {
    JSON.parse(utf8.decode(bytes));
  });

  bench("reference: JSON.parse(string)", () => {
    JSON.parse(text);
  });
});

describe(`encode the same ${bytes.length}-byte document`, () => {
  bench("runvil: encodeJsonValue (sorted keys, budget, cycle and depth checks)", () => {
    encodeJsonValue(model);
  });

  bench("runvil: JsonWriter driven directly, bytes out (no sorting, no checks)", () => {
    const writer = new JsonWriter({ initialCapacity: 2 * bytes.length });
    writeDirect(writer, plain);
    writer.bytes();
  });

  bench("runvil: JsonWriter replaying Lua-like byte ranges (keyBytes/stringBytes)", () => {
    const writer = new JsonWriter({ initialCapacity: 2 * bytes.length });
    replay(writer, tape);
    writer.bytes();
  });

  bench("reference: JSON.stringify", () => {
    JSON.stringify(plain);
  });
});

/**
 * One writer call of a pre-recorded walk. Strings and keys are ranges of one byte heap, as a
 * Lua layer would read them from wasm memory with lua_tolstring.
 */
type Op =
  | { op: "begin-array" | "end-array" | "begin-object" | "end-object" | "null" }
  | { op: "key" | "string"; start: number; end: number }
  | { op: "integer" | "float"; value: number }
  | { op: "boolean"; value: boolean };

/** Records the walk of `value` (keys sorted bytewise, as json.encode writes them). */
function record(value: unknown, ops: Op[], heap: number[]): void {
  const range = (s: string): { start: number; end: number } => {
    const start = heap.length;
    for (const b of new TextEncoder().encode(s)) heap.push(b);
    return { start, end: heap.length };
  };
  if (value === null) ops.push({ op: "null" });
  else if (typeof value === "boolean") ops.push({ op: "boolean", value });
  else if (typeof value === "number") {
    ops.push({ op: Number.isInteger(value) ? "integer" : "float", value });
  } else if (typeof value === "string") ops.push({ op: "string", ...range(value) });
  else if (Array.isArray(value)) {
    ops.push({ op: "begin-array" });
    for (const item of value) record(item, ops, heap);
    ops.push({ op: "end-array" });
  } else if (typeof value === "object") {
    ops.push({ op: "begin-object" });
    for (const [key, item] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) {
      ops.push({ op: "key", ...range(key) });
      record(item, ops, heap);
    }
    ops.push({ op: "end-object" });
  }
}

function replay(writer: JsonWriter, recorded: { ops: Op[]; heap: Uint8Array }): void {
  const heap = recorded.heap;
  for (const op of recorded.ops) {
    switch (op.op) {
      case "begin-array":
        writer.beginArray();
        break;
      case "end-array":
        writer.endArray();
        break;
      case "begin-object":
        writer.beginObject();
        break;
      case "end-object":
        writer.endObject();
        break;
      case "null":
        writer.null();
        break;
      case "boolean":
        writer.boolean(op.value);
        break;
      case "integer":
        writer.integer(op.value);
        break;
      case "float":
        writer.float(op.value);
        break;
      case "key":
        writer.keyBytes(heap, op.start, op.end);
        break;
      case "string":
        writer.stringBytes(heap, op.start, op.end);
        break;
    }
  }
}

/** Walks JSON.parse output straight into the writer: the writer's own cost. */
function writeDirect(writer: JsonWriter, value: unknown): void {
  if (value === null) writer.null();
  else if (typeof value === "boolean") writer.boolean(value);
  else if (typeof value === "number") {
    if (Number.isInteger(value)) writer.integer(value);
    else writer.float(value);
  } else if (typeof value === "string") writer.string(value);
  else if (Array.isArray(value)) {
    writer.beginArray();
    for (const item of value) writeDirect(writer, item);
    writer.endArray();
  } else if (typeof value === "object") {
    writer.beginObject();
    for (const [key, item] of Object.entries(value)) {
      writer.key(key);
      writeDirect(writer, item);
    }
    writer.endObject();
  }
}
