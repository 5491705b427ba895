import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";

/**
 * CPU-bound Lua in a section through `runvil run` (whole process), net of start-up: each
 * workload's run minus the run of the same prompt returning 0, medians of 5 interleaved rounds.
 * Three ways, in the same rounds: as shipped (hook-free: the cancel watchdog arms the hook only
 * when a cancel comes, docs/design/lua-vm.md), with `RUNVIL_LUA_SHARED_MEMORY=0` (no shared
 * memory: the count hook armed all along, the design before hook-free cancellation and the
 * fallback), and native lua5.4 (`lua5.4 file`, when on the PATH). Goal: hook-free ≤ 1.3×
 * native. Needs the built dist/.
 */

const ROUNDS = 5;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "runvil-cpu-lua-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORKLOADS: readonly { name: string; lua: string }[] = [
  {
    name: "fib(32)",
    lua: `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
return fib(32)`,
  },
  {
    name: "table building",
    lua: `local s = 0
for r = 1, 8 do
  local t = {}
  for i = 1, 400000 do t[i] = i * 2 end
  local h = {}
  for i = 1, 40000 do h['k' .. (i % 5000)] = i end
  s = s + #t
end
return s`,
  },
  {
    name: "string work",
    lua: `local n = 0
for r = 1, 6 do
  local parts = {}
  for i = 1, 60000 do parts[#parts + 1] = 'item ' .. i .. ':' .. string.rep('x', i % 7) end
  local text = table.concat(parts, ',')
  for w in text:gmatch('item (%d+)') do n = n + 1 end
  n = n + #(text:gsub('x+', 'y'))
end
return n`,
  },
  {
    name: "sort",
    lua: `local s = 0
for r = 1, 4 do
  local t, x = {}, 42 + r
  for i = 1, 150000 do x = (x * 1103515245 + 12345) % 2147483648 t[i] = x end
  table.sort(t)
  table.sort(t, function(a, b) return a > b end)
  s = s + t[1]
end
return s`,
  },
];

function promptFile(name: string, lua: string): string {
  const file = join(dir, `${name.replace(/\W+/g, "-")}.md`);
  writeFileSync(
    file,
    `---\nname: cpu\ndescription: CPU-bound Lua.\nrunvil: 0\n---\n\n# CPU\n\n\`\`\`lua\n${lua}\n\`\`\`\n`,
  );
  return file;
}

function luaFile(name: string, lua: string): string {
  const file = join(dir, `${name.replace(/\W+/g, "-")}.lua`);
  writeFileSync(file, `local function main()\n${lua}\nend\nmain()\n`);
  return file;
}

function msOf(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const result = spawnSync(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr}`);
  return ms;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const hasNative = spawnSync("lua5.4", ["-v"]).status === 0;
const fallbackEnv = { ...process.env, RUNVIL_LUA_SHARED_MEMORY: "0" };
const emptyPrompt = promptFile("empty", "return 0");
const emptyLua = luaFile("empty", "return 0");
const run = (file: string) => [bin, "run", file, "--no-record"];

msOf(process.execPath, run(emptyPrompt)); // file and code caches
const lines = [
  "CPU-bound Lua through `runvil run`, net of start-up (medians of 5 interleaved rounds, ms):",
];
for (const { name, lua } of WORKLOADS) {
  const prompt = promptFile(name, lua);
  const script = luaFile(name, lua);
  const figures = { free: [] as number[], hooked: [] as number[], native: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    figures.free.push(
      msOf(process.execPath, run(prompt)) - msOf(process.execPath, run(emptyPrompt)),
    );
    figures.hooked.push(
      msOf(process.execPath, run(prompt), fallbackEnv) -
        msOf(process.execPath, run(emptyPrompt), fallbackEnv),
    );
    if (hasNative) figures.native.push(msOf("lua5.4", [script]) - msOf("lua5.4", [emptyLua]));
  }
  const free = median(figures.free);
  const hooked = median(figures.hooked);
  const native = hasNative ? median(figures.native) : Number.NaN;
  lines.push(
    `  ${name.padEnd(15)} hook-free ${free.toFixed(0)}, hook armed (fallback) ${hooked.toFixed(0)}` +
      (hasNative
        ? `, native ${native.toFixed(0)} -> hook-free ${(free / native).toFixed(2)}x, hook ${(hooked / native).toFixed(2)}x native (goal <= 1.3x)`
        : " (native lua5.4 not on the PATH)"),
  );
}
console.log(`\n${lines.join("\n")}\n`);

describe("fib(32) in a section through runvil run", () => {
  const prompt = promptFile("fib-bench", WORKLOADS[0]?.lua ?? "");
  bench(
    "hook-free",
    () => {
      msOf(process.execPath, run(prompt));
    },
    { iterations: 3, time: 0 },
  );
  bench(
    "hook armed (RUNVIL_LUA_SHARED_MEMORY=0)",
    () => {
      msOf(process.execPath, run(prompt), fallbackEnv);
    },
    { iterations: 3, time: 0 },
  );
});
