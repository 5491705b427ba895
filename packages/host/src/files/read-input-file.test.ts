import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputFileError, MAX_INPUT_FILE_BYTES, readInputFile } from "./read-input-file";

function problemOf(run: () => unknown): { problem: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputFileError);
    const failure = error as InputFileError;
    return { problem: failure.problem, message: failure.message };
  }
  throw new Error("expected an InputFileError");
}

describe("readInputFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "runvil-input-"));

  it("reads a regular file, and one through a link", () => {
    const file = join(dir, "p.md");
    writeFileSync(file, "# Hi\n");
    expect(new TextDecoder().decode(readInputFile(file))).toBe("# Hi\n");
    symlinkSync(file, join(dir, "link.md"));
    expect(readInputFile(join(dir, "link.md")).length).toBe(5);
    writeFileSync(join(dir, "empty.md"), "");
    expect(readInputFile(join(dir, "empty.md")).length).toBe(0);
  });

  it("reads a file of exactly the cap and refuses one byte more", () => {
    const file = join(dir, "big.md");
    writeFileSync(file, Buffer.alloc(1000, "x"));
    expect(readInputFile(file, { maxBytes: 1000 }).length).toBe(1000);
    expect(problemOf(() => readInputFile(file, { maxBytes: 999, what: "a prompt file" }))).toEqual({
      problem: "too_large",
      message: `${file}: is larger than 999 bytes, the most a prompt file may hold`,
    });
    expect(MAX_INPUT_FILE_BYTES).toBe(8_388_608);
  });

  it("names a missing file and a directory", () => {
    expect(problemOf(() => readInputFile(join(dir, "none.md")))).toEqual({
      problem: "not_found",
      message: `${join(dir, "none.md")}: no such file`,
    });
    mkdirSync(join(dir, "sub"));
    expect(problemOf(() => readInputFile(join(dir, "sub")))).toEqual({
      problem: "not_a_file",
      message: `${join(dir, "sub")}: is a directory`,
    });
  });
});
