import { randomUUID } from "node:crypto";
import { readAllFiles } from "@runvil/harness";
import { StoreError } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openPgStoreDatabase,
  type PgStoreDatabase,
  PgStoreDatabaseError,
} from "./pg-store-database";
import {
  adminQuery,
  CuttableProxy,
  dropSchema,
  freshSchema,
  serverUrl,
  skipReason,
  suiteName,
} from "./test-support/test-server";

const runId = (): string => `run-${randomUUID()}`;

describe.skipIf(skipReason !== undefined)(suiteName("the PostgreSQL run store"), () => {
  const schema = freshSchema();
  let database: PgStoreDatabase;
  let other: PgStoreDatabase;

  beforeAll(async () => {
    database = await openPgStoreDatabase(serverUrl(), { schema });
    other = await openPgStoreDatabase(serverUrl(), { schema });
  });

  afterAll(async () => {
    await database?.close();
    await other?.close();
    await dropSchema(schema);
  });

  it("keeps the stores of concurrent runs apart", async () => {
    const ids = Array.from({ length: 6 }, runId);
    const stores = await Promise.all(ids.map((id) => database.store(id)));
    await Promise.all(
      stores.flatMap((store, i) => [
        store.write("shared.md", `run ${i}`),
        store.append("log.txt", `a${i}\n`),
        store.append("log.txt", `b${i}\n`),
        store.write(`own/${i}.md`, "x"),
      ]),
    );
    for (const [i, store] of stores.entries()) {
      expect(await readAllFiles(store)).toEqual({
        "log.txt": `a${i}\nb${i}\n`,
        [`own/${i}.md`]: "x",
        "shared.md": `run ${i}`,
      });
    }
  });

  it("two processes on one run's store lose no change and share the store limit", async () => {
    const id = runId();
    const limits = { maxStoreBytes: 200 };
    const here = await database.store(id, { limits });
    const there = await other.store(id, { limits });
    const lines = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(2, "0")}\n`);
    const outcomes = await Promise.allSettled(
      lines.map((line, i) => (i % 2 === 0 ? here : there).append("log.txt", line)),
    );
    // 40 lines of 8 bytes are 320 bytes, over 200: 25 appends fit, whichever store made them.
    const kept = lines.filter((_, i) => outcomes[i]?.status === "fulfilled");
    expect(kept).toHaveLength(25);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected")
        expect(outcome.reason).toMatchObject({ reason: "too_large" });
    }
    const text = await there.read("log.txt");
    expect(text.split("\n").filter(Boolean).sort()).toEqual(kept.map((l) => l.trimEnd()).sort());
    await here.delete("log.txt");
    await expect(there.write("more.txt", "x".repeat(201))).rejects.toMatchObject({
      reason: "too_large",
      message: "more.txt: the store would hold 201 bytes, over the 200-byte store limit",
    });
    await here.write("more.txt", "x".repeat(200));
  });

  it("creates a run's store once: a recovered run opens the store it left", async () => {
    const id = runId();
    const first = await database.store(id, { files: { "seed.md": "seed" } });
    await first.write("seed.md", "changed");
    await first.write("new.md", "new");
    expect(await database.hasStore(id)).toBe(true);
    const recovered = await other.store(id, { files: { "seed.md": "seed" } });
    expect(await readAllFiles(recovered)).toEqual({ "new.md": "new", "seed.md": "changed" });
    expect(await other.deleteStore(id)).toBe(true);
    expect(await database.hasStore(id)).toBe(false);
    expect(await database.deleteStore(id)).toBe(false);
  });

  it("applyOnce applies an operation key once and answers its record after", async () => {
    const store = await database.store(runId());
    await store.applyOnce("main/1", { op: "append", path: "log.txt", text: "one\n" });
    await store.applyOnce("main/1", { op: "append", path: "log.txt", text: "one\n" });
    await store.applyOnce("main/2", { op: "append", path: "log.txt", text: "two\n" });
    expect(await store.read("log.txt")).toBe("one\ntwo\n");

    const failed = await store
      .applyOnce("main/3", { op: "delete", path: "later.md" })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(StoreError);
    await store.write("later.md", "written after the failed delete");
    // The step tried again after a crash answers the failure it had, and deletes nothing.
    const again = await store
      .applyOnce("main/3", { op: "delete", path: "later.md" })
      .catch((e) => e);
    expect(StoreError.isInstance(again)).toBe(true);
    expect({ ...again, message: again.message }).toEqual({
      name: "StoreError",
      reason: "not_found",
      path: "later.md",
      message: "later.md: not found",
    });
    expect(await store.read("later.md")).toBe("written after the failed delete");
    expect(await store.applyOnce("main/4", { op: "read", path: "later.md" })).toBe(
      "written after the failed delete",
    );
    expect(await store.applyOnce("main/5", { op: "glob", pattern: "*.txt" })).toEqual(["log.txt"]);
    expect(await store.applyOnce("main/6", { op: "list" })).toEqual(["later.md", "log.txt"]);
  });

  it("a new seed that breaks the path rules is refused with its StoreError", async () => {
    await expect(database.store(runId(), { files: { "../x": "y" } })).rejects.toMatchObject({
      reason: "invalid_path",
      message: "../x: invalid path: '.' and '..' segments are not allowed",
    });
    await expect(database.store(runId(), { files: { a: "1", "a/b": "2" } })).rejects.toMatchObject({
      reason: "not_a_file",
      message: "a/b: a is a file, not a directory",
    });
    await expect(database.store(runId(), { files: { "a/b": "1", a: "2" } })).rejects.toMatchObject({
      reason: "not_a_file",
      message: "a: is a directory, not a file",
    });
    await expect(database.store("")).rejects.toThrow(
      'a run id must be 1 to 200 characters without control characters, got ""',
    );
  });
});

describe.skipIf(skipReason !== undefined)(
  suiteName("the PostgreSQL run store while the server goes away"),
  () => {
    const schema = freshSchema();
    // Made in beforeAll: vitest collects a skipped suite's body too, where no server URL is set.
    let proxy: CuttableProxy;
    let database: PgStoreDatabase;
    const lost: string[] = [];

    beforeAll(async () => {
      proxy = new CuttableProxy(serverUrl());
      await proxy.start();
      database = await openPgStoreDatabase(proxy.urlFor(serverUrl()), {
        schema,
        unreachableForMs: 20_000,
        onUnreachable: (message) => lost.push(message),
      });
    });

    afterAll(async () => {
      await proxy.cut();
      await database?.close();
      await dropSchema(schema);
    });

    it("operations wait while the server is gone, then apply exactly once", async () => {
      const id = runId();
      const store = await database.store(id);
      const lines = Array.from({ length: 60 }, (_, i) => `line ${i}\n`);
      const appends = lines.map((line) => store.append("log.txt", line));
      // Cut the connections a few times while the appends go through.
      for (let cut = 0; cut < 3; cut += 1) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        await proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 150));
        await proxy.start();
      }
      await Promise.all(appends);
      expect(await store.read("log.txt")).toBe(lines.join(""));
      expect(lost.length).toBeGreaterThan(0);
      expect(lost[0]).toMatch(
        new RegExp(
          `^store append of run ${id}: postgres://runvil@127\\.0\\.0\\.1:\\d+/runvil_test is unreachable \\(`,
        ),
      );
    });

    it("fails io_error once the server stays away past the wait", async () => {
      const quick = await openPgStoreDatabase(proxy.urlFor(serverUrl()), {
        schema,
        unreachableForMs: 300,
      });
      const store = await quick.store(runId());
      await proxy.cut();
      try {
        const error = await store.write("a.md", "x").catch((e: unknown) => e);
        expect(StoreError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ reason: "io_error", path: "a.md" });
        expect((error as Error).message).toMatch(
          /^a\.md: write failed \((ECONNREFUSED|ECONNRESET|database)\)$/,
        );
      } finally {
        await proxy.start();
        await quick.close();
      }
    });
  },
);

describe.skipIf(skipReason !== undefined)(suiteName("opening the PostgreSQL run store"), () => {
  it("names the server, password hidden, when it cannot be reached", async () => {
    const error = await openPgStoreDatabase("postgres://runvil:secret@127.0.0.1:9/none").catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PgStoreDatabaseError);
    expect((error as Error).message).toMatch(
      /^postgres:\/\/runvil:\*\*\*@127\.0\.0\.1:9\/none: cannot open the run store: .*\(ECONNREFUSED\); start the server or check the URL$/,
    );
  });

  it("refuses a schema name that is not plain", async () => {
    await expect(openPgStoreDatabase(serverUrl(), { schema: "x; DROP" })).rejects.toThrow(
      "x; DROP is not a plain schema name (a-z, 0-9, _)",
    );
  });

  it("refuses a store of a newer schema and leaves it unchanged", async () => {
    const schema = freshSchema();
    await (await openPgStoreDatabase(serverUrl(), { schema })).close();
    await adminQuery(`UPDATE ${schema}.runvil_store_schema SET version = version + 1`);
    try {
      await expect(openPgStoreDatabase(serverUrl(), { schema })).rejects.toThrow(
        /the run store has schema version 2, and this Runvil reads up to version 1; upgrade Runvil to use it \(it was left unchanged\)$/,
      );
      expect(await adminQuery(`SELECT version FROM ${schema}.runvil_store_schema`)).toEqual([
        { version: 2 },
      ]);
    } finally {
      await dropSchema(schema);
    }
  });

  it("two first opens at once migrate once", async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([
      openPgStoreDatabase(serverUrl(), { schema }),
      openPgStoreDatabase(serverUrl(), { schema }),
    ]);
    expect(await adminQuery(`SELECT version FROM ${schema}.runvil_store_schema`)).toEqual([
      { version: 1 },
    ]);
    await a.close();
    await b.close();
    await dropSchema(schema);
  });
});
