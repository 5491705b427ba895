import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type * as Pg from "pg";

const run = promisify(execFile);
const inCi = process.env.CI === "true";

/** The newest `/usr/lib/postgresql/N/bin` holding initdb and pg_ctl, as scripts/test-postgres.sh finds it. */
function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^[0-9]+$/.test(name))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  for (const version of versions.reverse()) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  return undefined;
}

const binDir = postgresBinDir();

/**
 * Why the tests that stop their own PostgreSQL server are skipped, or undefined when they run:
 * they need Debian's postgresql binaries (`.ci/run` installs them; with CI=true they never skip).
 */
export const privateClusterSkipReason: string | undefined =
  binDir === undefined && !inCi
    ? "no PostgreSQL binaries (initdb, pg_ctl): install Debian's postgresql package"
    : undefined;

/** A free TCP port on 127.0.0.1 (nothing listens on it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The password of the private cluster's user `runvil` (logins from 127.0.0.1 need it). */
export const PRIVATE_PASSWORD = "outage-secret";

/**
 * A throwaway PostgreSQL cluster of one test file, on its own port: a test may stop it (as a
 * crash: `pg_ctl stop -m immediate`) and start it again. Never the shared test server, which other
 * tests use. As root the server runs as the `postgres` user (it refuses root).
 */
export class PrivateCluster {
  readonly port: number;
  readonly #dir: string;
  readonly #bin: string;

  private constructor(port: number, dir: string, bin: string) {
    this.port = port;
    this.#dir = dir;
    this.#bin = bin;
  }

  /** Creates the cluster (initdb) and starts it. */
  static async create(): Promise<PrivateCluster> {
    if (binDir === undefined) {
      throw new Error(
        "CI=true but no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql: .ci/run must install Debian's postgresql package",
      );
    }
    const dir = mkdtempSync(join(tmpdir(), "runvil-private-pg-"));
    const passwordFile = join(dir, "password");
    writeFileSync(passwordFile, `${PRIVATE_PASSWORD}\n`);
    if (process.getuid?.() === 0) {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: gid } = await run("id", ["-g", "postgres"]);
      for (const path of [dir, passwordFile])
        chownSync(path, Number(stdout.trim()), Number(gid.trim()));
    }
    const cluster = new PrivateCluster(await freePort(), dir, binDir);
    await cluster.#asOwner("initdb", [
      "-D",
      join(dir, "cluster"),
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      `--pwfile=${passwordFile}`,
      "-U",
      "runvil",
      "-E",
      "UTF8",
    ]);
    await cluster.start();
    return cluster;
  }

  /** A URL of database `name` on this cluster (with the password, or `password`). */
  url(name: string, password: string = PRIVATE_PASSWORD): string {
    return `postgres://runvil:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${name}`;
  }

  /** Creates database `name` and gives its URL. */
  async createDatabase(name: string): Promise<string> {
    const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
    const client = new Client({ connectionString: this.url("postgres") });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    await this.#asOwner("pg_ctl", [
      "-D",
      join(this.#dir, "cluster"),
      "-l",
      join(this.#dir, "server.log"),
      "-w",
      "-t",
      "60",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.#dir} -c fsync=off`,
      "start",
    ]);
  }

  /** Stops the server as a crash would (`-m immediate`: every connection cut, no checkpoint). */
  async crash(): Promise<void> {
    await this.#asOwner("pg_ctl", ["-D", join(this.#dir, "cluster"), "-m", "immediate", "stop"]);
  }

  /** Stops the server and deletes the cluster. */
  async destroy(): Promise<void> {
    await this.#asOwner("pg_ctl", [
      "-D",
      join(this.#dir, "cluster"),
      "-m",
      "immediate",
      "stop",
    ]).catch(() => undefined);
    rmSync(this.#dir, { recursive: true, force: true });
  }

  async #asOwner(tool: string, args: readonly string[]): Promise<void> {
    const path = join(this.#bin, tool);
    const [file, argv] =
      process.getuid?.() === 0
        ? ["runuser", ["-u", "postgres", "--", path, ...args]]
        : [path, [...args]];
    try {
      await run(file, argv as string[], { timeout: 120_000 });
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(
        `${tool} ${args.join(" ")} failed: ${String(error)}\n${output.stdout ?? ""}${output.stderr ?? ""}`,
      );
    }
  }
}
