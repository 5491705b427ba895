import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { diskIo } from "./journal/test-journal-io";
import { runCli } from "./run-cli";
import { chunk, ScriptedOpenAiServer, usageChunk } from "./test-openai-server";
import { spawnCli } from "./test-resume";

/**
 * A run held inside a model round (a local OpenAI-compatible server that waits), recorded by the
 * built CLI in a child process: what `runvil runs show` sees of it meanwhile, what a kill -9
 * keeps, and `runvil resume` of it while its process lives and once it was killed
 * (docs/design/journal.md "Writes and crashes", docs/design/resume.md "A run still recording").
 */

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const built = existsSync(bin);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const PROMPT = `---
name: held
description: Gathers a note, then asks a model to summarise it.
runvil: 0
models:
  writer:
    model: local:qwen3
---

# Held

\`\`\`lua
store.write('notes.md', 'cats sleep sixteen hours a day')
log('gathered the notes')
models.default('writer')
\`\`\`

## Ask

\`\`\`lua
log('asking the writer')
return models.infer('Summarise: ' .. store.read('notes.md'))
\`\`\`
`;

function project(baseURL: string): { dir: string; file: string; journal: string } {
  const dir = mkdtempSync(join(tmpdir(), "runvil-live-"));
  folders.push(dir);
  const file = join(dir, "held.md");
  writeFileSync(file, PROMPT);
  writeFileSync(
    join(dir, "runvil.config.json"),
    JSON.stringify({
      plugins: [],
      providers: {
        local: {
          module: "@ai-sdk/openai-compatible",
          options: { baseURL },
          retry: { initialDelayMs: 10, maxDelayMs: 20 },
          models: { qwen3: { contextWindow: 40960, maxOutputTokens: 512 } },
        },
      },
    }),
  );
  return { dir, file, journal: join(dir, "runs.db") };
}

/** The summary the server gives every round. */
const summary = () => ({
  sse: [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Cats sleep most of the day." }),
    chunk({}, "stop"),
    usageChunk(40, 7),
  ],
});

/** `runvil ARGS` in this process (the journal commands run on the main thread anyway). */
async function cli(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const io = diskIo();
  const code = await runCli([...args], io);
  return { code, out: io.out, err: io.err };
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
    else child.once("exit", (_code, signal) => resolve(signal));
  });
}

describe.skipIf(!built)(
  `a run held inside a model round${built ? "" : " (skipped: build @runvil/cli first)"}`,
  () => {
    it("shows what it did before the round while the round is open, keeps it through kill -9, refuses a resume while its process lives and resumes it once killed, refusing a second resume meanwhile", async () => {
      const server = new ScriptedOpenAiServer(summary);
      const baseURL = await server.start();
      const release = server.hold(1);
      const { dir, file, journal } = project(baseURL);
      const child = spawn(process.execPath, [bin, "run", file, "--journal", journal], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let releaseResumed = () => {};
      let resuming: ChildProcess | undefined;
      let stderr = "";
      child.stderr?.on("data", (piece: Buffer) => {
        stderr += piece.toString();
      });
      try {
        // The round is open: the server holds its request.
        await expect
          .poll(() => (child.exitCode === null ? server.bodies.length : stderr), {
            timeout: 30_000,
          })
          .toBe(1);
        const listed = await cli(["runs", "list", "--journal", journal, "--json"]);
        const [run] = JSON.parse(listed.out) as { id: string; outcome: string }[];
        const id = run?.id ?? "";
        expect(run?.outcome).toBe("running");
        // Its section and the open round show while the round is held: no effect follows them,
        // so the event window commits them on their own.
        await expect
          .poll(async () => (await cli(["runs", "show", id, "--journal", journal])).out, {
            timeout: 10_000,
            interval: 50,
          })
          .toContain("…  model round 1 (infer) on writer = local:qwen3 · in progress");
        const shown = (await cli(["runs", "show", id, "--journal", journal])).out;
        expect(shown).toContain("\nAsk (entry 0.1, walk)\n");
        expect(shown).toContain(
          `no ending yet: process ${child.pid} on ${hostname()} is recording it\n`,
        );
        const held = (await cli(["runs", "events", id, "--journal", journal])).out;
        expect(held).toContain('"message":"asking the writer"');
        expect(held.trimEnd().split("\n").at(-1)).toContain('"type":"model_turn_started"');

        // A resume while the recording process lives is refused, naming it; nothing changes.
        const refused = await spawnCli(["resume", id, "--journal", journal], { cwd: dir });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toBe(
          `${journal}: run ${id} is still being recorded by process ${child.pid} on ${hostname()}, so it was not resumed (it would run twice); wait for it to end, or stop it (kill -TERM ${child.pid}) and resume it then (the record was left unchanged)\n`,
        );
        expect((await cli(["runs", "events", id, "--journal", journal])).out).toBe(held);
        expect(server.bodies).toHaveLength(1);

        // kill -9 inside the round: everything committed before stays, the run reads as stale.
        child.kill("SIGKILL");
        expect(await exited(child)).toBe("SIGKILL");
        expect((await cli(["runs", "events", id, "--journal", journal])).out).toBe(held);
        expect((await cli(["runs", "show", id, "--journal", journal])).out).toContain(
          `no ending: process ${child.pid} on ${hostname()} that recorded it is gone (killed or crashed); runvil resume ${id} continues it\n`,
        );

        // Stale: resumed as before. The round runs again (it never answered) and is recorded;
        // while that resume holds the round, a second resume is refused, naming the first.
        release();
        releaseResumed = server.hold(2);
        const before = Date.now();
        const first = spawn(process.execPath, [bin, "resume", id, "--journal", journal], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
        });
        resuming = first;
        let out = "";
        let err = "";
        first.stdout?.on("data", (piece: Buffer) => {
          out += piece.toString();
        });
        first.stderr?.on("data", (piece: Buffer) => {
          err += piece.toString();
        });
        await expect
          .poll(() => (first.exitCode === null ? server.bodies.length : err), { timeout: 30_000 })
          .toBe(2);
        const second = await spawnCli(["resume", id, "--journal", journal], { cwd: dir });
        expect(second.code).toBe(1);
        expect(second.stderr).toBe(
          `${journal}: run ${id} is still being recorded by process ${first.pid} on ${hostname()}, so it was not resumed (it would run twice); wait for it to end, or stop it (kill -TERM ${first.pid}) and resume it then (the record was left unchanged)\n`,
        );
        releaseResumed();
        const code = await new Promise<number | null>((resolve) => {
          if (first.exitCode !== null) resolve(first.exitCode);
          else first.once("exit", (exitCode) => resolve(exitCode));
        });
        expect(err).toMatch(
          new RegExp(`^resumed ${id}: 2 effects answered by the journal, 1 run live\\n$`),
        );
        expect(code).toBe(0);
        expect(out).toBe("Cats sleep most of the day.\n");
        expect(server.bodies).toHaveLength(2);
        const after = JSON.parse(
          (await cli(["runs", "show", id, "--journal", journal, "--json"])).out,
        ) as { outcome: string; resumes: number; resumedAt: string[]; recordedBy: unknown };
        expect(after).toMatchObject({ outcome: "succeeded", resumes: 1, recordedBy: null });
        expect(after.resumedAt).toHaveLength(1);
        const at = Date.parse(after.resumedAt[0] ?? "");
        expect(at).toBeGreaterThanOrEqual(before - 1000);
        expect(at).toBeLessThanOrEqual(Date.now());
        const text = (await cli(["runs", "show", id, "--journal", journal])).out;
        expect(text).toContain(
          `\nresumed once (${new Date(at).toISOString().slice(0, 19).replace("T", " ")}Z)\n`,
        );
        expect(text).not.toContain("in progress");
        const table = (await cli(["runs", "list", "--journal", journal])).out.split("\n");
        expect(table[0]).toMatch(/ OUTCOME +RESUMES +ROUNDS /);
        expect(table[1]).toMatch(new RegExp(`^${id} .* succeeded +1 +1 `));
        expect((await cli(["replay", id, "--journal", journal])).code).toBe(0);
      } finally {
        release();
        releaseResumed();
        child.kill("SIGKILL");
        await exited(child);
        if (resuming !== undefined) {
          resuming.kill("SIGKILL");
          await exited(resuming);
        }
        await server.close();
      }
    });
  },
);
