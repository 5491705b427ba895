import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startupMark } from "../startup-marks";

/**
 * The precompiled-Lua file beside the worker bundle (dist/engine-lua.json): the bytecode of the
 * Engine's own Lua chunks, written by the build's warm-up run, so a run loads them instead of
 * compiling them from source at its first section (docs/design/performance.md "Issue 18").
 */
export const PRECOMPILED_LUA_FILE = "engine-lua.json";

/** What the worker bundle exports for it (from @runvil/lua). */
export interface PrecompiledLuaSide {
  providePrecompiledLua(
    text: string,
  ):
    | { readonly ok: true; readonly chunks: number }
    | { readonly ok: false; readonly reason: string };
  precompiledLuaFile(): string;
}

/**
 * Provides the bundle's Lua with the precompiled-Lua file in `dir`, when there is one. Without
 * it (or when its text is refused) the Engine Lua is compiled from source as before: the file is
 * an optimization, never a requirement. The start-up marks say which.
 */
export function providePrecompiledLuaFrom(dir: string, side: PrecompiledLuaSide): void {
  let text: string;
  try {
    text = readFileSync(join(dir, PRECOMPILED_LUA_FILE), "utf8");
  } catch {
    startupMark("precompiled lua absent");
    return;
  }
  const loaded = side.providePrecompiledLua(text);
  startupMark(
    loaded.ok
      ? `precompiled lua (${loaded.chunks} chunks)`
      : `precompiled lua refused: ${loaded.reason}`,
  );
}

/** Writes the Engine Lua this thread compiled as the precompiled-Lua file in `dir` (the build). */
export function savePrecompiledLuaTo(dir: string, side: PrecompiledLuaSide): void {
  writeFileSync(join(dir, PRECOMPILED_LUA_FILE), side.precompiledLuaFile(), "utf8");
}
