export { chunkNameForLine } from "./chunk-name";
export type { CompileResult } from "./compile";
export {
  formatCompileError,
  LuaCompileError,
  type LuaCompileErrorInit,
} from "./compile-error";
export { type LuaRuntime, loadLuaRuntime } from "./runtime";
