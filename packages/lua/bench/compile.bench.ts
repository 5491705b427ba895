import { bench, describe } from "vitest";
import { LuaFactory } from "wasmoon";
import { loadLuaModule } from "../src/module";
import { RawLua, toUtf8 } from "../src/raw-api";
import { loadLuaRuntime } from "../src/runtime";

/** A block of `lineCount` lines shaped like prompt Lua (every line a statement). */
function makeBlock(lineCount: number): string {
  const lines = [
    "local results = {}",
    "local function clean(text)",
    "  return (text:gsub('%s+', ' '))",
    "end",
  ];
  for (let i = 0; lines.length < lineCount - 1; i++) {
    lines.push(
      i % 3 === 0
        ? `if #results < ${i + 10} then results[#results + 1] = clean('answer ${i}') end`
        : i % 3 === 1
          ? `for j = 1, ${i % 7} do results[#results + 1] = tostring(j * ${i}) end`
          : `results['key_${i}'] = { id = ${i}, label = 'item ${i}', ok = ${i % 2 === 0} }`,
    );
  }
  lines.push("return table.concat(results, ', ')");
  return lines.join("\n");
}

const runtime = await loadLuaRuntime();
const raw = new RawLua(await loadLuaModule());
const scratch = raw.module._luaL_newstate();
const engine = await new LuaFactory().createEngine({ enableProxy: false });

for (const lineCount of [20, 200]) {
  const source = makeBlock(lineCount);
  const bytes = toUtf8(source);
  const check = runtime.compile(source, "line 14");
  if (!check.ok) throw new Error(`bench block does not compile: ${check.diagnostic}`);

  describe(`compile a ${lineCount}-line block (${bytes.length} bytes)`, () => {
    bench("runvil: runtime.compile (load + lua_dump, scratch state)", () => {
      runtime.compile(source, "line 14");
    });

    bench("raw: load only, scratch state (no dump)", () => {
      raw.loadBuffer(scratch, toUtf8(source), "line 14", "t");
      raw.module._lua_settop(scratch, 0);
    });

    bench("raw: load only, fresh bare state per compile", () => {
      const L = raw.module._luaL_newstate();
      raw.loadBuffer(L, toUtf8(source), "line 14", "t");
      raw.module._lua_close(L);
    });

    bench("reference: wasmoon LuaEngine global.loadString (load only)", () => {
      engine.global.loadString(source, "line 14");
      engine.global.pop();
    });
  });
}
