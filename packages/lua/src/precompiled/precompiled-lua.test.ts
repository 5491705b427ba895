import { beforeAll, describe, expect, it } from "vitest";
import { Compiler } from "../compile";
import { loadLuaModule } from "../module";
import { LuaStatus, RawLua } from "../raw-api";
import { precompiledLuaFile, providePrecompiledLua } from "./precompiled-lua";

let raw: RawLua;
/** The load modes of every `loadBuffer` the compiler made: "t" is a compile, "b" a check. */
let loads: string[];
let compiler: Compiler;

beforeAll(async () => {
  raw = new RawLua(await loadLuaModule());
  const watched = Object.create(raw) as RawLua;
  watched.loadBuffer = (L, source, chunkName, mode) => {
    loads.push(mode);
    return raw.loadBuffer(L, source, chunkName, mode);
  };
  compiler = new Compiler(watched);
});

function compile(source: string, chunkName: string): Uint8Array {
  loads = [];
  const result = compiler.compile(source, chunkName);
  if (!result.ok) throw new Error(result.diagnostic);
  return result.bytecode;
}

/** Runs bytecode in a bare state and returns its first result as text (or the error). */
function runBytecode(bytecode: Uint8Array): string {
  const { module } = raw;
  const L = module._luaL_newstate();
  try {
    if (raw.loadBuffer(L, bytecode, "=(bytecode)", "b") !== LuaStatus.OK) {
      return `load error: ${raw.toText(L, -1)}`;
    }
    const status = module._lua_pcallk(L, 0, 1, 0, 0, 0);
    return `${status === LuaStatus.OK ? "" : "error: "}${raw.toText(L, -1)}`;
  } finally {
    module._lua_close(L);
  }
}

/** A precompiled-Lua file holding one chunk. */
function fileOf(name: string, source: string, bytecode: Uint8Array): string {
  return JSON.stringify({
    runvilPrecompiledLua: 1,
    chunks: [
      {
        name,
        source,
        bytecode: Buffer.from(bytecode).toString("base64"),
      },
    ],
  });
}

describe("precompiled Engine Lua", () => {
  it("writes what was compiled, and gives those bytes back without compiling", () => {
    const source = "local x = ...\nreturn 'first ' .. (x == nil and 'nil' or 'x')";
    const bytecode = compile(source, "@runvil/first.lua");
    expect(loads).toEqual(["t"]);
    const file = precompiledLuaFile();
    expect(JSON.parse(file).chunks).toContainEqual({
      name: "@runvil/first.lua",
      source,
      bytecode: Buffer.from(bytecode).toString("base64"),
    });

    expect(providePrecompiledLua(file)).toMatchObject({ ok: true });
    const again = compile(source, "@runvil/first.lua");
    expect(loads).toEqual(["b"]);
    expect(Buffer.from(again).equals(Buffer.from(bytecode))).toBe(true);
    expect(runBytecode(again)).toBe("first nil");
  });

  it("compiles a chunk whose source is not the one the file was built from", () => {
    const old = compile("return 'old'", "@runvil/changed.lua");
    expect(providePrecompiledLua(fileOf("@runvil/changed.lua", "return 'old'", old))).toEqual({
      ok: true,
      chunks: 1,
    });
    expect(runBytecode(compile("return 'new'", "@runvil/changed.lua"))).toBe("new");
    expect(loads).toEqual(["t"]);
  });

  it("compiles from source when this Lua refuses the bytecode, and forgets it", () => {
    const source = "return 'refused'";
    const good = compile(source, "@runvil/refused.lua");
    const broken = good.slice(0, 12); // a dump cut after its header
    providePrecompiledLua(fileOf("@runvil/refused.lua", source, broken));
    expect(runBytecode(compile(source, "@runvil/refused.lua"))).toBe("refused");
    expect(loads).toEqual(["b", "t"]);
    compile(source, "@runvil/refused.lua");
    expect(loads).toEqual(["t"]);
  });

  it("neither looks up nor keeps a prompt's block", () => {
    const block = "return 'block'";
    const bytecode = compile(block, "line 3");
    providePrecompiledLua(fileOf("line 3", block, new Uint8Array([1, 2, 3])));
    expect(runBytecode(compile(block, "line 3"))).toBe("block");
    expect(loads).toEqual(["t"]);
    expect(
      JSON.parse(precompiledLuaFile()).chunks.map((c: { name: string }) => c.name),
    ).not.toContain("line 3");
    expect(bytecode.length).toBeGreaterThan(0);
  });

  it("refuses a text that is not a precompiled-Lua file, saying why", () => {
    expect(providePrecompiledLua("nope")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not JSON/),
    });
    expect(providePrecompiledLua("{}")).toEqual({
      ok: false,
      reason: "not a precompiled-Lua file of format 1",
    });
    expect(providePrecompiledLua('{"runvilPrecompiledLua":1,"chunks":{}}')).toEqual({
      ok: false,
      reason: "chunks is not a list",
    });
    expect(providePrecompiledLua('{"runvilPrecompiledLua":1,"chunks":[{"name":1}]}')).toEqual({
      ok: false,
      reason: "chunks[0] is not { name, source, bytecode }",
    });
  });
});
