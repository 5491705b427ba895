import { beforeAll, describe, expect, it } from "vitest";
import { type CompileResult, Compiler } from "./compile";
import { loadLuaModule } from "./module";
import { LuaStatus, RawLua } from "./raw-api";

let raw: RawLua;
let compiler: Compiler;

beforeAll(async () => {
  raw = new RawLua(await loadLuaModule());
  compiler = new Compiler(raw);
});

function bytecodeOf(result: CompileResult): Uint8Array {
  if (!result.ok) throw new Error(`expected a successful compile, got: ${result.diagnostic}`);
  return result.bytecode;
}

function diagnosticOf(result: CompileResult): string {
  if (result.ok) throw new Error("expected a compile error");
  return result.diagnostic;
}

/**
 * Runs dumped bytecode in a fresh bare state (binary mode only) and returns its first result as
 * bytes, or the error message prefixed with "error: ".
 */
function runBytecode(bytecode: Uint8Array): Uint8Array | string {
  const { module } = raw;
  const L = module._luaL_newstate();
  try {
    const loaded = raw.loadBuffer(L, bytecode, "=(bytecode)", "b");
    if (loaded !== LuaStatus.OK) return `load error: ${raw.toText(L, -1)}`;
    const status = module._lua_pcallk(L, 0, 1, 0, 0, 0);
    const text = raw.toText(L, -1);
    if (status !== LuaStatus.OK) return `error: ${text}`;
    return raw.toBytes(L, -1) ?? new Uint8Array();
  } finally {
    module._lua_close(L);
  }
}

function runToText(bytecode: Uint8Array): string {
  const result = runBytecode(bytecode);
  return typeof result === "string" ? result : new TextDecoder().decode(result);
}

describe("Compiler.compile: success", () => {
  it("returns non-empty Lua 5.4 bytecode that runs to the block's result", () => {
    const bytecode = bytecodeOf(compiler.compile("return 6 * 7", "line 3"));
    expect(bytecode.length).toBeGreaterThan(0);
    // LUA_SIGNATURE "\x1bLua", then LUAC_VERSION 0x54, LUAC_FORMAT 0.
    expect([...bytecode.subarray(0, 6)]).toEqual([0x1b, 0x4c, 0x75, 0x61, 0x54, 0x00]);
    expect(runToText(bytecode)).toBe("42");
  });

  it("runs nothing: error('x') and an endless loop both compile", () => {
    expect(compiler.compile("error('x')", "line 1").ok).toBe(true);
    expect(compiler.compile("while true do end", "line 1").ok).toBe(true);
    expect(compiler.compile("repeat local a = 1 until false", "line 1").ok).toBe(true);
  });

  it("keeps debug information: the chunk name, line numbers and local names", () => {
    const bytecode = bytecodeOf(compiler.compile("local t = nil\nreturn t.field", "line 14"));
    expect(runToText(bytecode)).toBe(
      `error: [string "line 14"]:2: attempt to index a nil value (local 't')`,
    );
  });

  it("compiles the empty block", () => {
    expect(runBytecode(bytecodeOf(compiler.compile("", "line 1")))).toEqual(new Uint8Array());
  });
});

describe("Compiler.compile: diagnostics", () => {
  it("gives Lua's diagnostic for the broken-check example, naming the chunk", () => {
    const diagnostic = diagnosticOf(compiler.compile("local secret =\nreturn secret", "line 14"));
    expect(diagnostic).toBe(`[string "line 14"]:2: unexpected symbol near 'return'`);
  });

  it("reports an unclosed `return (` at <eof>", () => {
    expect(diagnosticOf(compiler.compile("return (", "line 30"))).toBe(
      `[string "line 30"]:1: unexpected symbol near <eof>`,
    );
    expect(diagnosticOf(compiler.compile("return (\n", "line 30"))).toBe(
      `[string "line 30"]:2: unexpected symbol near <eof>`,
    );
  });

  it("passes other compiler errors through unchanged", () => {
    expect(diagnosticOf(compiler.compile("local t <const> = 1\nt = 2", "line 5"))).toBe(
      `[string "line 5"]:2: attempt to assign to const variable 't'`,
    );
    expect(diagnosticOf(compiler.compile("goto nowhere", "line 5"))).toBe(
      `[string "line 5"]:1: no visible label 'nowhere' for <goto> at line 1`,
    );
    expect(diagnosticOf(compiler.compile("x = 1 \u0001", "line 5"))).toBe(
      `[string "line 5"]:1: unexpected symbol near '<\\1>'`,
    );
  });

  it("refuses binary chunks, including its own bytecode", () => {
    const bytecode = bytecodeOf(compiler.compile("return 1", "line 1"));
    expect(diagnosticOf(compiler.compile(bytecode, "line 1"))).toBe(
      "attempt to load a binary chunk (mode is 't')",
    );
    expect(diagnosticOf(compiler.compile("\u001bLua", "line 1"))).toBe(
      "attempt to load a binary chunk (mode is 't')",
    );
  });

  it("fails cleanly on nesting too deep for the parser, and stays usable", () => {
    const deep = `return ${"(".repeat(300)}1${")".repeat(300)}`;
    expect(diagnosticOf(compiler.compile(deep, "line 1"))).toBe("C stack overflow");
    expect(compiler.compile("return 1", "line 1").ok).toBe(true);
  });

  it("Lua 5.5 gap: a `global` declaration does not compile on wasmoon's Lua 5.4", () => {
    expect(diagnosticOf(compiler.compile("global x = 1", "line 1"))).toBe(
      `[string "line 1"]:1: syntax error near 'x'`,
    );
    expect(compiler.compile("local global = 1", "line 1").ok).toBe(true);
  });

  it("Lua 5.5 gap: a for-loop control variable is assignable in wasmoon's Lua 5.4", () => {
    expect(compiler.compile("for i = 1, 3 do i = i + 1 end", "line 1").ok).toBe(true);
  });

  it("throws a TypeError for a chunk name holding NUL, before touching Lua", () => {
    expect(() => compiler.compile("return 1", "line\u00001")).toThrow(TypeError);
    expect(compiler.stackDepth()).toBe(1);
  });
});

describe("Compiler.compile: bytes", () => {
  it("passes UTF-8 bytes with their byte length", () => {
    // 13 characters but 19 bytes: a character-count length would cut the string literal short.
    const bytecode = bytecodeOf(compiler.compile("return '世界世界'", "line 1"));
    expect(runToText(bytecode)).toBe("世界世界");
    expect(diagnosticOf(compiler.compile("local s = 'é→世'\nlocal x =", "line 7"))).toBe(
      `[string "line 7"]:2: unexpected symbol near <eof>`,
    );
  });

  it("quotes UTF-8 tokens in diagnostics as Lua saw them", () => {
    expect(diagnosticOf(compiler.compile("for 'ü' = 1, 2 do end", "line 1"))).toBe(
      `[string "line 1"]:1: <name> expected near ''ü''`,
    );
    // A non-ASCII byte outside a string is one unexpected symbol, printed as its byte value.
    expect(diagnosticOf(compiler.compile("local é = 1", "line 1"))).toBe(
      `[string "line 1"]:1: <name> expected near '<\\195>'`,
    );
  });

  it("keeps NUL bytes inside string literals", () => {
    const bytecode = bytecodeOf(compiler.compile("return 'a\u0000b'", "line 1"));
    expect(runBytecode(bytecode)).toEqual(new Uint8Array([0x61, 0x00, 0x62]));
  });

  it("reports a NUL byte outside a string as Lua does (no `near` for token 0)", () => {
    expect(diagnosticOf(compiler.compile("x = 1\u0000\nreturn x", "line 9"))).toBe(
      `[string "line 9"]:1: unexpected symbol`,
    );
  });

  it("compiles raw bytes as they are, invalid UTF-8 included", () => {
    const source = new Uint8Array([...new TextEncoder().encode("return '"), 0xff, 0xfe, 0x27]);
    expect(runBytecode(bytecodeOf(compiler.compile(source, "line 1")))).toEqual(
      new Uint8Array([0xff, 0xfe]),
    );
  });

  it("compiles a 1 MB block", () => {
    const lines = ["local t = {}"];
    let size = 0;
    for (let i = 0; size < 1_048_576; i++) {
      const line = `t[#t + 1] = 'entry number ${i} of a very large generated block'`;
      lines.push(line);
      size += line.length + 1;
    }
    lines.push("return #t");
    const result = compiler.compile(lines.join("\n"), "line 1");
    expect(runToText(bytecodeOf(result))).toBe(String(lines.length - 2));
  });
});

describe("Compiler: scratch state", () => {
  it("leaves only string.dump on the stack after successful and failed compiles", () => {
    compiler.compile("return 1", "line 1");
    expect(compiler.stackDepth()).toBe(1);
    compiler.compile("return (", "line 1");
    expect(compiler.stackDepth()).toBe(1);
    compiler.compile("\u001bLua", "line 1");
    expect(compiler.stackDepth()).toBe(1);
  });

  it("gives the same bytecode for the same source every time", () => {
    const first = bytecodeOf(compiler.compile("local a = {1, 2}\nreturn a[2]", "line 2"));
    const second = bytecodeOf(compiler.compile("local a = {1, 2}\nreturn a[2]", "line 2"));
    expect(second).toEqual(first);
  });
});
