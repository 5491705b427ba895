// One fresh process of lua-thread-cpu.bench.ts: loads @runvil/lua from the build given as the
// first argument, runs the Lua file given second as a block in a new VM with a cancel flag (as
// `runvil run` makes them: hooked until the cancel watchdog runs, then hook-free), twice, and
// prints the CPU time of this thread (the Lua thread) for each, from /proc's schedstat, as JSON.
// A third argument "watched" starts the cancel watchdog first and gives it a second to run (a
// long-lived host that starts it early): the first block is then hook-free from its start.
import { readFileSync } from "node:fs";

const [dist, file, mode] = process.argv.slice(2);
if (dist === undefined || file === undefined) {
  throw new Error("usage: lua-thread-cpu.mjs <@runvil/lua dist/index.js> <file.lua> [watched]");
}
const { loadLuaVmFactory } = await import(dist);
const source = readFileSync(file, "utf8");
const stat = `/proc/self/task/${process.pid}/schedstat`;
const threadCpuMs = () => Number(readFileSync(stat, "utf8").split(" ")[0]) / 1e6;
const factory = await loadLuaVmFactory();
if (mode === "watched") {
  factory.startCancelWatchdog();
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
const flag = new Int32Array(new SharedArrayBuffer(8));
const ms = [];
for (let block = 0; block < 2; block++) {
  const vm = factory.create({ cancelFlag: flag });
  const before = threadCpuMs();
  const outcome = await vm.runBlock({ source, chunkName: "=bench" });
  ms.push(threadCpuMs() - before);
  vm.close();
  if (!outcome.ok) throw new Error(`the block failed: ${outcome.message}`);
}
console.log(JSON.stringify({ first: ms[0], second: ms[1] }));
