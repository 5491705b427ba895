import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The CPU-bound Lua workloads of cpu-lua.bench.ts and wasm-tiering.bench.ts, the prompt and the
 * Lua file each runs as, and a whole-process timer (wall, and CPU of every thread through
 * /usr/bin/time where it exists).
 */
export const WORKLOADS: readonly { name: string; lua: string }[] = [
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

const slug = (name: string): string => name.replace(/\W+/g, "-");

/** A one-section prompt in `dir` whose block is `lua`. */
export function promptFile(dir: string, name: string, lua: string): string {
  const file = join(dir, `${slug(name)}.md`);
  writeFileSync(
    file,
    `---\nname: cpu\ndescription: CPU-bound Lua.\nrunvil: 0\n---\n\n# CPU\n\n\`\`\`lua\n${lua}\n\`\`\`\n`,
  );
  return file;
}

/** The same Lua as a file for native lua5.4 (inside a function, as a block is). */
export function luaFile(dir: string, name: string, lua: string): string {
  const file = join(dir, `${slug(name)}.lua`);
  writeFileSync(file, `local function main()\n${lua}\nend\nmain()\n`);
  return file;
}

/** Whether native lua5.4 is on the PATH. */
export const hasNativeLua = spawnSync("lua5.4", ["-v"]).status === 0;

const TIME = "/usr/bin/time";
const hasTime = existsSync(TIME);

/** One process's wall time and, where /usr/bin/time exists, its CPU time (user + system), in ms. */
export interface ProcessTime {
  wall: number;
  cpu: number;
}

/** Runs `command args` to its end; throws with its standard error when it fails. */
export function timeProcess(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): ProcessTime {
  const argv = hasTime ? ["-f", "runvil-cpu %U %S", command, ...args] : args;
  const start = performance.now();
  const result = spawnSync(hasTime ? TIME : command, argv, {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const wall = performance.now() - start;
  const stderr = String(result.stderr);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${stderr}`);
  const cpu = /runvil-cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  return { wall, cpu: cpu === null ? Number.NaN : (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
