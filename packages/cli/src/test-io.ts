import type { CliIo } from "./io";

/** A CliIo over an in-memory file map that records what the CLI printed. */
export function memoryIo(files: Record<string, string | Uint8Array>): CliIo & {
  out: string;
  err: string;
} {
  const io = {
    out: "",
    err: "",
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    async readFile(path: string): Promise<Uint8Array> {
      const content = files[path];
      if (content === undefined) {
        throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: "ENOENT" });
      }
      return typeof content === "string" ? new TextEncoder().encode(content) : content;
    },
  };
  return io;
}
