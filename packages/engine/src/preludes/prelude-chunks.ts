import type { RunPrelude } from "@runvil/protocol";
import type { LuaRuntime, PreludeChunk } from "../lua";
import { preludeChunkName } from "../lua";

const byRuntime = new WeakMap<LuaRuntime, WeakMap<RunPrelude, PreludeChunk>>();

/**
 * The chunks every section VM of a run installs, in `uses:` order: each prelude compiled once
 * (text mode, chunk name `pack:{id}`) and kept as bytecode for as long as its RunPrelude lives,
 * so a VM loads bytecode instead of parsing the source again. A prelude that does not compile
 * stays source text: loading it in the VM fails with the same compile error, in its place in the
 * install order.
 */
export function preludeChunks(
  runtime: LuaRuntime,
  preludes: readonly RunPrelude[],
): PreludeChunk[] {
  let cache = byRuntime.get(runtime);
  if (cache === undefined) {
    cache = new WeakMap();
    byRuntime.set(runtime, cache);
  }
  const chunks: PreludeChunk[] = [];
  for (const prelude of preludes) {
    let chunk = cache.get(prelude);
    if (chunk === undefined) {
      const compiled = runtime.compile(prelude.source, preludeChunkName(prelude.pack));
      chunk = compiled.ok
        ? { pack: prelude.pack, bytecode: compiled.bytecode }
        : { pack: prelude.pack, source: prelude.source };
      cache.set(prelude, chunk);
    }
    chunks.push(chunk);
  }
  return chunks;
}
