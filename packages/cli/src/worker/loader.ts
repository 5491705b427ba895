/**
 * The script of the thread a `runvil run` runs in (built as dist/worker.cjs). It sets the V8
 * flags the run wants, loads the run's bundle (dist/worker-bundle.cjs, see bundle.ts)
 * through V8's code cache, and starts it with its workerData (a WorkerStart), or, in a worker
 * started early (PRESTART_WORKER_DATA, see prestart.ts), with the start its first
 * message hands it, after providing the bundle's Lua with the Engine Lua's bytecode the build
 * wrote beside it (precompiled-lua.ts). With WARM_UP_WORKER_DATA as its workerData it runs the
 * warm-up prompt instead and saves the cache and that bytecode (the build does that). When the
 * cache is missing or V8 refuses it (another Node version, other Node options), the bundle
 * compiles from source and a cache is written for the next run, if the directory is writable. It is CommonJS (no top-level await),
 * so a worker that loads no plugin or provider module never starts Node's ES module loader.
 * docs/design/performance.md and docs/design/cli.md "The worker".
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { startupMark } from "../startup-marks";
import { loadCachedBundle, WARM_UP_WORKER_DATA } from "./code-cache";
import type { WorkerStart } from "./messages";
import {
  type PrecompiledLuaSide,
  providePrecompiledLuaFrom,
  savePrecompiledLuaTo,
} from "./precompiled-lua";
import { PRESTART_WORKER_DATA, type PrestartMessage } from "./prestart";

/**
 * V8 compiles hot WebAssembly functions again with its optimizing compiler in the background
 * once they have run this many bytes' worth; the default (1,800,000) starts those jobs within
 * a one-section run, and the process then waits ~60-80 ms at exit for them to finish. A larger
 * budget tiers up only code that runs long (measured: no slower, even faster on CPU-bound Lua
 * on two cores). docs/design/cli.md "Cold start". Set before the bundle compiles: V8 refuses a
 * code cache made under other flags.
 */
const WASM_TIERING_BUDGET = 50_000_000;

/**
 * The V8 flags the run sets: the tiering budget above, unless the process was started with it
 * (`node --wasm-tiering-budget=… runvil`, NODE_OPTIONS): a flag given there is left as given,
 * which is also how bench/wasm-tiering.bench.ts measures other settings.
 */
function wasmFlags(options: string): string[] {
  const given = options.replace(/_/g, "-");
  if (/--wasm-tiering-budget\b/.test(given)) return [];
  return [`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`];
}

/** What bundle.ts exports. */
interface WorkerBundle extends PrecompiledLuaSide {
  main(start: WorkerStart): Promise<void>;
  warmUp(): Promise<void>;
}

/**
 * Runs `main` with the start a prestarted worker is handed. `main` is called inside the
 * message's handler, so its own message listener is in place before any later message
 * (a Ctrl-C's cancel) is dispatched.
 */
function mainWhenStarted(entry: WorkerBundle): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("dist/worker.cjs runs only as a worker thread of runvil run");
  return new Promise((resolve, reject) => {
    port.once("message", (message: PrestartMessage) => {
      entry.main(message.start).then(resolve, reject);
    });
  });
}

/**
 * The code cache file for this process's Node options: V8 refuses a cache made under other
 * flags, so each set of options (`node --…`, NODE_OPTIONS) keeps its own file instead of
 * overwriting another's at every run. Without options it is the one the build writes.
 */
function cacheFileFor(bundleFile: string): string {
  const options = nodeOptions();
  if (options === "") return `${bundleFile}.cache`;
  let hash = 0x811c9dc5; // FNV-1a, 32 bits
  for (let i = 0; i < options.length; i++) {
    hash = Math.imul(hash ^ options.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `${bundleFile}.${hash.toString(16).padStart(8, "0")}.cache`;
}

/** The process's Node options: `node --…` and NODE_OPTIONS. */
function nodeOptions(): string {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ").trim();
}

/** Loads the bundle and runs what the workerData asks for. */
async function runWorker(): Promise<void> {
  startupMark("worker started");
  for (const flag of wasmFlags(nodeOptions())) setFlagsFromString(flag);
  const dir = dirname(fileURLToPath(import.meta.url));
  const bundleFile = join(dir, "worker-bundle.cjs");
  const cacheFile = cacheFileFor(bundleFile);
  const bundle = loadCachedBundle(bundleFile, cacheFile);
  const entry = bundle.exports as WorkerBundle;
  startupMark(`bundle loaded (cache ${bundle.cacheState})`);
  if (workerData === WARM_UP_WORKER_DATA) {
    // The warm-up compiles the Engine Lua from source; the build keeps its bytecode.
    await entry.warmUp();
    if (!bundle.saveCache()) throw new Error(`could not write ${cacheFile}`);
    savePrecompiledLuaTo(dir, entry);
  } else {
    if (bundle.cacheState !== "accepted") bundle.saveCache();
    providePrecompiledLuaFrom(dir, entry);
    if (workerData === PRESTART_WORKER_DATA) await mainWhenStarted(entry);
    else await entry.main(workerData as WorkerStart);
  }
}

// A failure is thrown again outside the promise, so the worker ends with it (its `error` event).
runWorker().catch((error: unknown) => {
  process.nextTick(() => {
    throw error;
  });
});
