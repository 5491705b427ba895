import { describe, expect, it } from "vitest";
import * as lua from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(lua).sort()).toEqual([
      "CANCELLED_MESSAGE",
      "DEFAULT_LUA_MEMORY_BYTES",
      "EngineError",
      "HostError",
      "JsonDecodeError",
      "JsonEncodeError",
      "KEPT_LUA_GLOBALS",
      "LuaCompileError",
      "LuaOpaque",
      "LuaPanicError",
      "MAX_LUA_MEMORY_BYTES",
      "NEW_USERDATA_FIELD",
      "YIELD_ACROSS_C_MESSAGE",
      "argumentError",
      "chunkNameForLine",
      "decodeJsonValue",
      "encodeJsonValue",
      "ensureSealedTargets",
      "ensureUserdataFactory",
      "formatCompileError",
      "formatSysWhen",
      "installErrors",
      "installGlobalGuard",
      "installIteration",
      "installJson",
      "installLog",
      "installPreludes",
      "installSys",
      "installUi",
      "installVar",
      "isErrorKind",
      "loadLuaRuntime",
      "loadLuaVmFactory",
      "precompiledLuaFile",
      "preludeChunkName",
      "providePrecompiledLua",
      "quotaError",
      "readBackVar",
      "uncaughtError",
    ]);
  });
});
