#!/usr/bin/env node
// Durable workers benchmark (for the note; not a vitest bench: it spawns worker processes).
//   RUNVIL_TEST_PG_URL=postgres://runvil@127.0.0.1:54329/runvil_test node packages/cli/bench/durable-workers.mjs
// Measures, on a fresh database each: runs per second through one worker and through three
// (concurrency 4 each; a small prompt with one store write and one tool call, no model), and the
// recovery time after a SIGKILL: from the kill of the worker running a run inside a slow tool to
// the recovered execution starting that tool again, (a) with the worker restarted under its
// executor id, (b) with another worker recovering it after --dead-after 2.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const server = process.env.RUNVIL_TEST_PG_URL;
if (server === undefined) throw new Error("set RUNVIL_TEST_PG_URL (bash scripts/test-postgres.sh)");
const { openDurableClient } = await import("@runvil/durable");
const pg = require("pg");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function admin(sql) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function freshDatabase() {
  const name = `runvil_bench_${randomBytes(4).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const dir = mkdtempSync(join(tmpdir(), "runvil-durable-bench-"));
writeFileSync(
  join(dir, "bench-plugin.mjs"),
  `import { appendFileSync } from "node:fs";
export const benchPlugin = { name: "bench", setup(api) { api.addPack({ vendor: "test", name: "bench",
  description: "Bench tools.", tools: [
    { id: "bench/mark", description: "Marks.", parameters: { type: "object", properties: {} }, trust: "trusted", run: () => "ok" },
    { id: "bench/slow", description: "Slow.", parameters: { type: "object", properties: {} }, trust: "trusted",
      run: async () => { appendFileSync(process.env.RUNVIL_BENCH_MARKS, Date.now() + "\\t" + process.pid + "\\n");
        await new Promise((r) => setTimeout(r, 4000)); return "slow"; } },
  ] }); } };
`,
);
writeFileSync(
  join(dir, "runvil.config.json"),
  JSON.stringify({ plugins: [{ module: "./bench-plugin.mjs" }] }),
);
writeFileSync(
  join(dir, "small.md"),
  `---\nname: small\ndescription: One store write and one tool call.\nrunvil: 0\nuses: [test/bench]\n---\n\n# Small\n\n## Main\n\n\`\`\`lua\nstore.write('n.txt', args)\nreturn tools.call('bench/mark') .. args\n\`\`\`\n`,
);
writeFileSync(
  join(dir, "slow.md"),
  `---\nname: slow\ndescription: A slow tool between two store writes.\nrunvil: 0\nuses: [test/bench]\n---\n\n# Slow\n\n## Main\n\n\`\`\`lua\nstore.write('a.txt', 'a')\nlocal said = tools.call('bench/slow')\nstore.write('b.txt', said)\nreturn said\n\`\`\`\n`,
);
const marks = join(dir, "marks.tsv");
writeFileSync(marks, "");

function worker(url, id, extra = []) {
  const log = [];
  const child = spawn(
    process.execPath,
    [bin, "worker", "--database", url, "--executor-id", id, ...extra],
    {
      env: { ...process.env, RUNVIL_BENCH_MARKS: marks },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  child.stderr.on("data", (d) => log.push(String(d)));
  const ready = (async () => {
    while (!log.join("").includes("taking runs")) await sleep(50);
  })();
  return { child, log, ready };
}

async function throughput(workers, runs) {
  const db = await freshDatabase();
  const started = [];
  for (let i = 0; i < workers; i++) {
    const w = worker(db.url, `t${i}`, ["--concurrency", "4"]);
    started.push(w);
    await w.ready;
  }
  const client = await openDurableClient(db.url);
  const text = readFileSync(join(dir, "small.md"), "utf8");
  const t0 = Date.now();
  const ids = [];
  for (let i = 0; i < runs; i++) {
    ids.push(
      await client.submit({
        prompt: { path: join(dir, "small.md"), text },
        args: String(i),
        seed: i,
      }),
    );
  }
  await Promise.all(ids.map((id) => client.result(id, { timeoutMs: 600_000 })));
  const seconds = (Date.now() - t0) / 1000;
  for (const w of started) w.child.kill("SIGKILL");
  await client.close();
  await db.drop();
  return runs / seconds;
}

async function recovery(mode) {
  const db = await freshDatabase();
  const first = worker(db.url, "r1", ["--heartbeat", "250", "--dead-after", "2"]);
  await first.ready;
  const other =
    mode === "other"
      ? worker(db.url, "r2", ["--heartbeat", "250", "--dead-after", "2"])
      : undefined;
  await other?.ready;
  const client = await openDurableClient(db.url);
  writeFileSync(marks, "");
  const text = readFileSync(join(dir, "slow.md"), "utf8");
  // With a second worker live, the run may land on either: kill the one that runs it.
  const id = await client.submit({
    prompt: { path: join(dir, "slow.md"), text },
    args: "",
    seed: 1,
  });
  while (readFileSync(marks, "utf8") === "") await sleep(20);
  const [, pid] = readFileSync(marks, "utf8").trim().split("\t");
  const victim = [first, other].find((w) => w !== undefined && String(w.child.pid) === pid);
  const killedAt = Date.now();
  victim.child.kill("SIGKILL");
  let restarted;
  if (mode === "restart")
    restarted = worker(db.url, "r1", ["--heartbeat", "250", "--dead-after", "2"]);
  while (readFileSync(marks, "utf8").trim().split("\n").length < 2) await sleep(20);
  const [again] = readFileSync(marks, "utf8").trim().split("\n")[1].split("\t");
  const ms = Number(again) - killedAt;
  await client.result(id, { timeoutMs: 120_000 });
  for (const w of [first, other, restarted]) w?.child.kill("SIGKILL");
  await client.close();
  await db.drop();
  return ms;
}

const runs = Number(process.env.RUNVIL_BENCH_RUNS ?? 60);
console.log(
  `runs/s through 1 worker (concurrency 4, ${runs} runs): ${(await throughput(1, runs)).toFixed(2)}`,
);
console.log(
  `runs/s through 3 workers (concurrency 4, ${runs} runs): ${(await throughput(3, runs)).toFixed(2)}`,
);
console.log(
  `recovery after SIGKILL, worker restarted with its id: ${await recovery("restart")} ms`,
);
console.log(
  `recovery after SIGKILL, another worker (--dead-after 2): ${await recovery("other")} ms`,
);
appendFileSync(join(dir, "done"), "");
