import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DirectoryStore } from "../store/directory-store";
import {
  removeStaleTemporaries,
  STALE_TEMPORARY_AGE_MS,
  type StaleTemporaryRule,
} from "../store/stale-temporaries";
import { seedDirectory, tempDirectory } from "../test-support/temp-directory";

/**
 * Attack class: crash leftovers (docs/security.md). kill -9 during a directory-store write
 * leaves its `.runvil-tmp-*` file; the next store to open the folder removes the stale ones,
 * and only those (store.md, "The directory store").
 */

const HARNESS = pathToFileURL(fileURLToPath(new URL("../../dist/index.js", import.meta.url))).href;

/** Starts a process whose directory-store write of `big.txt` hangs right before its rename. */
function writerStuckBeforeRename(root: string): Promise<ChildProcess> {
  const script = `
    import * as fs from "node:fs/promises";
    import { DirectoryStore } from ${JSON.stringify(HARNESS)};
    const stuck = { ...fs, rename: () => { process.stdout.write("ready\\n"); return new Promise(() => {}); } };
    await new DirectoryStore(${JSON.stringify(root)}, { fs: stuck, sync: false }).write("big.txt", "x".repeat(1 << 20));
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("ready")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`the writer exited early (${code})`)));
  });
}

function temporaries(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((name) => name.split("/").pop()?.startsWith(".runvil-tmp"))
    .sort();
}

/** A rule `age` ms after now, with only `running` pids alive. */
function later(age: number, running: readonly number[] = []): () => StaleTemporaryRule {
  return () => ({
    now: Date.now() + age,
    ownPid: process.pid,
    isRunning: (pid) => running.includes(pid),
  });
}

const OLD = STALE_TEMPORARY_AGE_MS + 60_000;

describe("security: crash leftovers in a directory store", () => {
  it("removes what kill -9 left mid-write when the next store opens, once stale", async () => {
    const root = tempDirectory();
    seedDirectory(root, { "big.txt": "old", "keep.md": "kept" });
    const writer = await writerStuckBeforeRename(root);
    const exited = new Promise((resolve) => writer.once("exit", resolve));
    writer.kill("SIGKILL");
    await exited;
    const left = temporaries(root);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^\\.runvil-tmp-${writer.pid}-1-[0-9a-f]{8}$`));

    // Just written: a writer could still be about to rename it, so it stays.
    expect(await removeStaleTemporaries(nodeFs, root)).toBe(0);
    expect(temporaries(root)).toEqual(left);

    // Ten minutes on, its writer gone: the next store to open the folder removes it.
    const store = new DirectoryStore(root, { sync: false, staleTemporaries: later(OLD) });
    expect(await store.list()).toEqual(["big.txt", "keep.md"]);
    expect(temporaries(root)).toEqual([]);
    expect(await store.read("big.txt")).toBe("old");
  });

  it("removes only stale files with the store's own temporary name", async () => {
    const root = tempDirectory();
    const dead = 999_999_999;
    const alive = 4242;
    const names = {
      stale: `.runvil-tmp-${dead}-3-0a1b2c3d`,
      nested: `notes/deep/.runvil-tmp-${dead}-1-deadbeef`,
      mine: `.runvil-tmp-${process.pid}-9-00000000`,
      living: `.runvil-tmp-${alive}-1-0a1b2c3d`,
      fresh: `.runvil-tmp-${dead}-4-0a1b2c3d`,
      otherName: ".runvil-tmp-notes",
      badHex: `.runvil-tmp-${dead}-1-0A1B2C3D`,
      longer: `.runvil-tmp-${dead}-1-0a1b2c3d.bak`,
    };
    for (const path of Object.values(names)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), "partial");
    }
    mkdirSync(join(root, `.runvil-tmp-${dead}-5-0a1b2c3d`));
    symlinkSync(join(root, names.otherName), join(root, `.runvil-tmp-${dead}-6-0a1b2c3d`));
    const past = (Date.now() - OLD) / 1000;
    for (const [key, path] of Object.entries(names)) {
      if (key !== "fresh") utimesSync(join(root, path), past, past);
    }
    const removed = await removeStaleTemporaries(nodeFs, root, {
      now: Date.now(),
      ownPid: process.pid,
      isRunning: (pid) => pid === alive,
    });
    expect(removed).toBe(3);
    expect(temporaries(root)).toEqual(
      [
        names.living,
        names.fresh,
        names.otherName,
        names.badHex,
        names.longer,
        `.runvil-tmp-${dead}-5-0a1b2c3d`,
        `.runvil-tmp-${dead}-6-0a1b2c3d`,
      ].sort(),
    );
  });

  it("sweeps once per folder and process, and never fails an operation for it", async () => {
    const root = tempDirectory();
    seedDirectory(root, { "a.txt": "a" });
    const failing = { ...nodeFs, readdir: () => Promise.reject(new Error("EIO: simulated")) };
    const store = new DirectoryStore(root, { fs: failing as typeof nodeFs, sync: false });
    expect(await store.read("a.txt")).toBe("a");
    writeFileSync(join(root, ".runvil-tmp-999999999-1-0a1b2c3d"), "partial");
    const again = new DirectoryStore(root, { sync: false, staleTemporaries: later(OLD) });
    expect(await again.read("a.txt")).toBe("a");
    expect(temporaries(root)).toEqual([".runvil-tmp-999999999-1-0a1b2c3d"]);
  });
});
