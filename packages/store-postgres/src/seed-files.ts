import {
  isDirectory,
  parentIsFile,
  parseStorePath,
  textArgument,
  textAsBytes,
  utf8ValidUpTo,
} from "@runvil/harness/store-kit";
import type { StoreText } from "@runvil/sdk";

/** A file to insert when a store is created: its bytes, and where they stop being UTF-8. */
export interface SeedRow {
  readonly path: string;
  readonly contents: Buffer;
  /** undefined when the contents are valid UTF-8. */
  readonly validUpTo: number | undefined;
}

/**
 * The rows of a store's first files (a scenario's `store:`), checked like a MemoryStore's seeds:
 * an invalid path or a string with a lone surrogate throws its StoreError; bytes that are not
 * UTF-8 are kept (reading them fails `invalid_utf8`); a file where another seed needs a directory
 * throws `not_a_file`.
 */
export function seedRows(files: Readonly<Record<string, StoreText>>): SeedRow[] {
  const rows: SeedRow[] = [];
  const paths = new Set<string>();
  const directories = new Set<string>();
  for (const [name, value] of Object.entries(files)) {
    const target = parseStorePath(name);
    let prefix = "";
    for (const segment of target.segments.slice(0, -1)) {
      prefix = prefix === "" ? segment : `${prefix}/${segment}`;
      if (paths.has(prefix)) throw parentIsFile(target.path, prefix);
    }
    if (directories.has(target.path)) throw isDirectory(target.path);
    prefix = "";
    for (const segment of target.segments.slice(0, -1)) {
      prefix = prefix === "" ? segment : `${prefix}/${segment}`;
      directories.add(prefix);
    }
    paths.add(target.path);
    if (typeof value === "string") {
      const text = textArgument(target.path, "contents", value);
      rows.push({ path: target.path, contents: toBuffer(textAsBytes(text)), validUpTo: undefined });
    } else {
      const validUpTo = utf8ValidUpTo(value);
      rows.push({
        path: target.path,
        contents: Buffer.from(value),
        validUpTo: validUpTo === value.length ? undefined : validUpTo,
      });
    }
  }
  return rows;
}

/** The bytes as a Buffer (pg sends a Buffer as bytea), without copying. */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
