import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/**
 * The most bytes a prompt file or a scenario file may hold: 8 MiB (8,388,608 bytes), the cap
 * json.decode and web/fetch apply too. A real prompt is a few kilobytes; the cap keeps
 * `runvil run /dev/zero`-like mistakes from reading without end.
 */
export const MAX_INPUT_FILE_BYTES = 8_388_608;

/** Why an input file could not be read. */
export type InputFileProblem = "not_found" | "not_a_file" | "too_large" | "unreadable";

/**
 * An input file (a prompt, a scenario file) that cannot be read. `detail` is the text to print
 * after `{path}: `, such as `is a FIFO (named pipe), not a regular file` or `is larger than
 * 8388608 bytes, the most a prompt file may hold`; `message` is `{path}: {detail}`.
 */
export class InputFileError extends Error {
  override readonly name = "InputFileError";

  constructor(
    /** The path as given. */
    readonly path: string,
    readonly problem: InputFileProblem,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${detail}`, options);
  }
}

/** What an input file is, for messages: `a prompt file`, `a scenario file`. */
export interface InputFileOptions {
  /** What the file is, for the size message (default `an input file`). */
  readonly what?: string;
  /** The most bytes it may hold (default {@link MAX_INPUT_FILE_BYTES}). */
  readonly maxBytes?: number;
}

/** What a file that is not a regular one is, for messages. */
function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return "is a directory";
  if (stats.isFIFO()) return "is a FIFO (named pipe), not a regular file";
  if (stats.isCharacterDevice()) return "is a character device, not a regular file";
  if (stats.isBlockDevice()) return "is a block device, not a regular file";
  if (stats.isSocket()) return "is a socket, not a regular file";
  return "is not a regular file";
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : String(error);
}

function failure(path: string, error: unknown): InputFileError {
  const code = errorCode(error);
  if (code === "ENOENT")
    return new InputFileError(path, "not_found", "no such file", { cause: error });
  if (code === "EISDIR") {
    return new InputFileError(path, "not_a_file", "is a directory", { cause: error });
  }
  return new InputFileError(path, "unreadable", `cannot read the file (${code})`, { cause: error });
}

/**
 * Reads an input file whole, as bytes. Only a regular file is read (a link to one is followed):
 * a FIFO, a device (`/dev/zero`), a socket or a directory is refused before it is opened, and
 * checked again on the open descriptor (opened non-blocking, so a FIFO swapped in cannot make the
 * open wait for a writer). A file over `maxBytes` is refused by its size, and reading stops one
 * byte past the cap should it grow meanwhile. Throws an {@link InputFileError}; never blocks on
 * anything but the disk.
 */
export function readInputFile(path: string, options: InputFileOptions = {}): Uint8Array {
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  const tooLarge = () =>
    new InputFileError(
      path,
      "too_large",
      `is larger than ${maxBytes} bytes, the most ${options.what ?? "an input file"} may hold`,
    );
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw failure(path, error);
  }
  const kind = kindOf(stats);
  if (kind !== undefined) throw new InputFileError(path, "not_a_file", kind);
  if (stats.size > maxBytes) throw tooLarge();
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw failure(path, error);
  }
  try {
    const opened = kindOf(fstatSync(fd));
    if (opened !== undefined) throw new InputFileError(path, "not_a_file", opened);
    // One byte more than the file's size shows whether it grew since its stat.
    let buffer = new Uint8Array(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw tooLarge();
        const larger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
        larger.set(buffer);
        buffer = larger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
    }
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw failure(path, error);
  } finally {
    closeSync(fd);
  }
}
