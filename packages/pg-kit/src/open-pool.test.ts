import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openPool } from "./open-pool";
import { isConnectionLoss } from "./pg-errors";
import { dropSchema, freshName, serverUrl, skipReason, suiteName } from "./testing";

const distIndex = fileURLToPath(new URL("../dist/index.js", import.meta.url));

describe("openPool", () => {
  it("refuses a schema that is not a plain name before it loads or connects anything", () => {
    expect(() =>
      openPool("postgres://127.0.0.1:1/x", { schema: "a;b", maxConnections: 1 }),
    ).toThrow(new RangeError("a;b is not a plain schema name (a-z, 0-9, _)"));
  });

  it("fails a connect the server never answers after connectTimeoutMs, as a lost connection", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)); // accepts, never speaks
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const pool = openPool(`postgres://u@127.0.0.1:${port}/db`, {
      schema: "public",
      maxConnections: 1,
      connectTimeoutMs: 200,
    });
    try {
      const failure = await pool.query("SELECT 1").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String(failure)).toMatch(/timeout/);
      expect(isConnectionLoss(failure)).toBe(true);
    } finally {
      await pool.end();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it.skipIf(!existsSync(distIndex))(
    `loads pg at the first pool, not at import${existsSync(distIndex) ? "" : " (skipped: build @runvil/pg-kit first)"}`,
    () => {
      const script = `
import { createRequire } from "node:module";
const kit = await import(${JSON.stringify(distIndex)});
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(k));
const before = loaded();
kit.redactedUrl("postgres://a:b@h/d");
const afterHelpers = loaded();
await kit.openPool("postgres://127.0.0.1:1/x", { schema: "public", maxConnections: 1 }).end();
console.log(JSON.stringify([before, afterHelpers, loaded()]));
`;
      const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual([false, false, true]);
    },
  );
});

describe.skipIf(skipReason !== undefined)(suiteName("openPool on a server"), () => {
  it("works in the schema it names (search_path)", async () => {
    const schema = freshName("runvil_pg_kit_test");
    const pool = openPool(serverUrl(), { schema, maxConnections: 1 });
    try {
      const rows = await pool.query<{ search_path: string }>("SHOW search_path");
      expect(rows.rows).toEqual([{ search_path: schema }]);
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });
});
