/**
 * The run's worker bundle (dist/worker-bundle.cjs: this module and everything it loads, the
 * Engine, Lua, the parser, the Host, the Harness and the official plugins, in one CommonJS
 * file). dist/worker.cjs (loader.ts) compiles it through V8's code cache and calls `main`
 * (docs/design/performance.md); the build calls `warmUp` once to fill that cache, then
 * `precompiledLuaFile` for the Engine Lua's bytecode, which every run hands back to
 * `providePrecompiledLua`.
 */
export { precompiledLuaFile, providePrecompiledLua } from "@runvil/lua";
export { main } from "./thread-side";
export { warmUp } from "./warm-up";
