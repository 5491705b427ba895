import { wasmApi } from "./wasm-api";
import { leb, readLeb, wasmName } from "./wasm-leb";

/** The linear memory a rewritten module imports: its page limits. */
export interface MemoryLimits {
  readonly initialPages: number;
  readonly maximumPages: number;
}

/** A module rewritten by {@link importSharedMemory}. */
export interface SharedMemoryModule {
  /** The rewritten module's bytes. */
  readonly bytes: Uint8Array;
  /** The limits of the memory the module defined, which it now imports as `env.memory`. */
  readonly limits: MemoryLimits;
}

/** A `WebAssembly.Memory` constructor, reduced to what a shared memory needs. */
interface MemoryConstructor {
  new (descriptor: { initial: number; maximum: number; shared: boolean }): { buffer: unknown };
}

const MEMORY_SECTION = 5;
const IMPORT_SECTION = 2;
const MEMORY_KIND = 0x02;
/** Limits flags: has a maximum (bit 0), shared (bit 1). */
const HAS_MAX = 0x01;
const SHARED_WITH_MAX = 0x03;

/**
 * Rewrites a wasm module that defines one linear memory (with a maximum) so that it imports that
 * memory instead, as a shared memory `env.memory` with the same limits. Nothing else changes: a
 * memory import takes memory index 0, the index the defined memory had, so every instruction,
 * data segment and the `memory` export still refer to it, and the data segments are written into
 * the imported memory at instantiation. Returns undefined when the module is not of that shape
 * (no memory section, several memories, an imported memory already, no maximum), so the caller
 * instantiates it unchanged.
 *
 * This is what lets another thread write into the Lua heap while Lua runs (cancel-watchdog.ts):
 * a shared memory is a SharedArrayBuffer underneath, and its buffer never detaches on growth.
 */
export function importSharedMemory(source: Uint8Array): SharedMemoryModule | undefined {
  if (source.length < 8 || source[0] !== 0x00 || source[1] !== 0x61) return undefined;
  const sections = readSections(source);
  if (sections === undefined) return undefined;
  const memory = sections.find((s) => s.id === MEMORY_SECTION);
  const imports = sections.find((s) => s.id === IMPORT_SECTION);
  if (memory === undefined || imports === undefined) return undefined;
  const limits = readMemorySection(source, memory.bodyStart, memory.end);
  if (limits === undefined || importsMemory(source, imports.bodyStart)) return undefined;
  const parts: Uint8Array[] = [source.subarray(0, 8)];
  for (const section of sections) {
    if (section.id === MEMORY_SECTION) continue;
    if (section.id === IMPORT_SECTION) {
      parts.push(withMemoryImport(source, section.bodyStart, section.end, limits));
      continue;
    }
    parts.push(source.subarray(section.start, section.end));
  }
  return { bytes: concat(parts), limits };
}

/**
 * A shared `WebAssembly.Memory` with `limits`, or undefined where shared memory is unavailable
 * (no SharedArrayBuffer: a browser page without cross-origin isolation, or a runtime that refuses
 * shared memories).
 */
export function createSharedMemory(limits: MemoryLimits): object | undefined {
  if (typeof SharedArrayBuffer === "undefined") return undefined;
  const Memory = (wasmApi() as unknown as { Memory?: MemoryConstructor }).Memory;
  if (Memory === undefined) return undefined;
  try {
    const memory = new Memory({
      initial: limits.initialPages,
      maximum: limits.maximumPages,
      shared: true,
    });
    return memory.buffer instanceof SharedArrayBuffer ? memory : undefined;
  } catch {
    return undefined;
  }
}

interface Section {
  readonly id: number;
  readonly start: number;
  readonly bodyStart: number;
  readonly end: number;
}

/** The module's sections, or undefined when a length runs past the end. */
function readSections(bytes: Uint8Array): Section[] | undefined {
  const sections: Section[] = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at] ?? 0;
    const [size, bodyStart] = readLeb(bytes, at + 1);
    const end = bodyStart + size;
    if (end > bytes.length) return undefined;
    sections.push({ id, start: at, bodyStart, end });
    at = end;
  }
  return sections;
}

/** The limits of a memory section with exactly one unshared memory that has a maximum. */
function readMemorySection(bytes: Uint8Array, at: number, end: number): MemoryLimits | undefined {
  const [count, afterCount] = readLeb(bytes, at);
  if (count !== 1) return undefined;
  const [flags, afterFlags] = readLeb(bytes, afterCount);
  if (flags !== HAS_MAX) return undefined;
  const [initialPages, afterInitial] = readLeb(bytes, afterFlags);
  const [maximumPages, afterMaximum] = readLeb(bytes, afterInitial);
  if (afterMaximum !== end) return undefined;
  return { initialPages, maximumPages };
}

/** Whether the import section already imports a memory. */
function importsMemory(bytes: Uint8Array, at: number): boolean {
  let [count, cursor] = readLeb(bytes, at);
  for (; count > 0; count--) {
    const [moduleLength, afterModule] = readLeb(bytes, cursor);
    const [fieldLength, afterField] = readLeb(bytes, afterModule + moduleLength);
    cursor = afterField + fieldLength;
    const kind = bytes[cursor++];
    if (kind === MEMORY_KIND) return true;
    if (kind === 0x00) {
      cursor = readLeb(bytes, cursor)[1]; // type index
    } else if (kind === 0x01) {
      cursor = skipLimits(bytes, cursor + 1); // element type, then limits
    } else if (kind === 0x03) {
      cursor += 2; // value type, mutability
    } else {
      cursor = readLeb(bytes, cursor + 1)[1]; // a tag: attribute, type index
    }
  }
  return false;
}

function skipLimits(bytes: Uint8Array, at: number): number {
  const [flags, afterFlags] = readLeb(bytes, at);
  const afterInitial = readLeb(bytes, afterFlags)[1];
  return flags & HAS_MAX ? readLeb(bytes, afterInitial)[1] : afterInitial;
}

/** The import section with one more entry: `env.memory`, shared, with `limits`. */
function withMemoryImport(
  bytes: Uint8Array,
  at: number,
  end: number,
  limits: MemoryLimits,
): Uint8Array {
  const [count, entries] = readLeb(bytes, at);
  const entry = [
    ...wasmName("env"),
    ...wasmName("memory"),
    MEMORY_KIND,
    SHARED_WITH_MAX,
    ...leb(limits.initialPages),
    ...leb(limits.maximumPages),
  ];
  const body = concat([
    Uint8Array.from(leb(count + 1)),
    bytes.subarray(entries, end),
    Uint8Array.from(entry),
  ]);
  return concat([Uint8Array.from([IMPORT_SECTION, ...leb(body.length)]), body]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
