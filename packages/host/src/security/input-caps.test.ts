import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadHostConfig } from "../config/load-host-config";
import { InputFileError, readInputFile } from "../files/read-input-file";

/**
 * Attack class: inputs without caps (docs/security.md). Prompt and scenario files are read
 * through readInputFile: regular files only, at most 8 MiB; the CLI's and testkit's own tests
 * show the messages users see.
 */

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputFileError);
    return (error as Error).message;
  }
  throw new Error("expected an InputFileError");
}

describe("security: input file caps", () => {
  it("refuses /dev/zero before reading a byte", () => {
    // `runvil run /dev/zero` read 5.7 GB before this.
    expect(messageOf(() => readInputFile("/dev/zero"))).toBe(
      "/dev/zero: is a character device, not a regular file",
    );
  });

  it("refuses a FIFO without waiting for a writer", () => {
    // `runvil run` on a FIFO waited forever.
    const fifo = join(mkdtempSync(join(tmpdir(), "runvil-fifo-")), "prompt.md");
    execFileSync("mkfifo", [fifo]);
    expect(messageOf(() => readInputFile(fifo))).toBe(
      `${fifo}: is a FIFO (named pipe), not a regular file`,
    );
  });

  it("refuses a configuration file that is a FIFO", async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), "runvil-fifo-")), "runvil.config.json");
    execFileSync("mkfifo", [fifo]);
    await expect(loadHostConfig(fifo)).rejects.toThrow(
      `${fifo}: cannot read the file: is a FIFO (named pipe), not a regular file`,
    );
  });
});
