import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const bin = join(dist, "bin.js");

/**
 * A preload (`node -r`, which worker threads inherit) that, in the run's worker, writes the
 * Node builtins the thread has loaded to MODULES_FILE when the report is posted.
 */
const PROBE = `const threads = require("node:worker_threads");
if (!threads.isMainThread) {
  const port = threads.parentPort;
  const post = port.postMessage.bind(port);
  port.postMessage = (message) => {
    if (message && message.type === "report") {
      require("node:fs").writeFileSync(process.env.MODULES_FILE, JSON.stringify(process.moduleLoadList));
    }
    return post(message);
  };
}
`;

let dir: string;
let cachesBefore: Set<string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "runvil-worker-modules-"));
  writeFileSync(join(dir, "probe.cjs"), PROBE);
  writeFileSync(
    join(dir, "one.md"),
    "---\nname: one\ndescription: One section.\nrunvil: 0\n---\n\n# One\n\n```lua\nstore.write('a.txt', 'x')\nreturn 'hi'\n```\n",
  );
  writeFileSync(join(dir, "runvil.config.json"), `{ "plugins": [] }\n`);
  cachesBefore = new Set(readdirSync(dist).filter((name) => name.endsWith(".cache")));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // The preload is a Node option: the worker kept a code cache of its own for it.
  for (const name of readdirSync(dist)) {
    if (name.endsWith(".cache") && !cachesBefore.has(name)) rmSync(join(dist, name));
  }
});

/** The builtins the worker of `runvil run one.md …args` had loaded when it reported. */
async function workerModules(args: readonly string[]): Promise<string[]> {
  const modulesFile = join(dir, "modules.json");
  rmSync(modulesFile, { force: true });
  const { stdout } = await run(
    process.execPath,
    ["-r", join(dir, "probe.cjs"), bin, "run", join(dir, "one.md"), ...args],
    { cwd: dir, env: { ...process.env, MODULES_FILE: modulesFile } },
  );
  expect(stdout).toBe("hi\n");
  return JSON.parse(readFileSync(modulesFile, "utf8")) as string[];
}

describe("what the run's worker loads (docs/design/performance.md)", () => {
  it("starts no ES module loader and loads no node:crypto for a run that records nothing", async () => {
    const modules = await workerModules(["--no-record", "--store", join(dir, "store")]);
    expect(readFileSync(join(dir, "store", "a.txt"), "utf8")).toBe("x");
    expect(modules).toContain("NativeModule worker_threads");
    // (node:module's own code requires internal/modules/esm/loader; a loader that loads a module
    // compiles its jobs and translators.)
    expect(modules.filter((name) => /esm\/(module_job|translators)$/.test(name))).toEqual([]);
    expect(modules.filter((name) => /crypto/.test(name))).toEqual([]);
  });
});
