import {
  decodePrecompiledLua,
  encodePrecompiledLua,
  type PrecompiledChunk,
} from "./precompiled-file";

/**
 * The process's precompiled Engine Lua (docs/design/performance.md "Issue 18"): the bytecode a
 * precompiled-Lua file provided, looked up by the Compiler before it compiles an Engine chunk
 * (a chunk name under `@runvil/`), and the Engine chunks this process compiled from source,
 * which the CLI's build writes as that file.
 */

/** The chunk-name prefix of the Engine's own Lua (docs/design/lua-files.md). */
const ENGINE_CHUNK_PREFIX = "@runvil/";

/** Bytecode provided by a file, by chunk name. */
const provided = new Map<string, PrecompiledChunk>();

/** Engine chunks compiled from source in this process, by chunk name. */
const compiled = new Map<string, PrecompiledChunk>();

/** Whether `chunkName` names a chunk of the Engine's own Lua (`@runvil/…`). */
export function isEngineChunkName(chunkName: string): boolean {
  return chunkName.startsWith(ENGINE_CHUNK_PREFIX);
}

/** What {@link providePrecompiledLua} made of a file. */
export type PrecompiledLuaLoad =
  | { readonly ok: true; readonly chunks: number }
  | { readonly ok: false; readonly reason: string };

/**
 * Provides the Engine Lua bytecode of a precompiled-Lua file's `text` (written by
 * {@link precompiledLuaFile} in a build): from now on, compiling an Engine chunk whose name and
 * source match one of them gives that bytecode, once this process's Lua has loaded it
 * (bytecode Lua refuses, from another Lua build say, is dropped and the chunk is compiled from
 * source). A chunk whose source changed is compiled from source. A text that is not such a file
 * provides nothing and says why.
 */
export function providePrecompiledLua(text: string): PrecompiledLuaLoad {
  const decoded = decodePrecompiledLua(text);
  if (!decoded.ok) return decoded;
  for (const chunk of decoded.chunks) {
    if (isEngineChunkName(chunk.name)) provided.set(chunk.name, chunk);
  }
  return { ok: true, chunks: decoded.chunks.length };
}

/**
 * The precompiled-Lua file of every Engine chunk this process compiled from source so far (the
 * CLI's build calls it after its warm-up run).
 */
export function precompiledLuaFile(): string {
  return encodePrecompiledLua(compiled.values());
}

/** The provided bytecode for this chunk, when its name and source match. */
export function providedBytecode(chunkName: string, source: string): Uint8Array | undefined {
  const chunk = provided.get(chunkName);
  if (chunk === undefined || chunk.source !== source) return undefined;
  return chunk.bytecode;
}

/** Forgets provided bytecode that this process's Lua refused. */
export function refuseProvided(chunkName: string): void {
  provided.delete(chunkName);
}

/** Notes an Engine chunk compiled from source, for {@link precompiledLuaFile}. */
export function recordCompiled(chunkName: string, source: string, bytecode: Uint8Array): void {
  compiled.set(chunkName, { name: chunkName, source, bytecode });
}
