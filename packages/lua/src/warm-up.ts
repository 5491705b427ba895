import type { Compiler } from "./compile";

/** A block shaped like prompt Lua: locals, tables, string methods, a function, loops. */
const SAMPLE_BLOCK = `local answers = {}
local function shout(text)
  return string.upper(text) .. '!'
end
for i = 1, 10 do
  answers[#answers + 1] = shout('item ' .. i)
end
local seen = { first = true, second = false }
if seen.first and not seen.second then
  answers.note = ('%d answers'):format(#answers)
elseif #answers > 3 then
  error('too many answers')
end
while #answers > 8 do
  table.remove(answers)
end
return table.concat(answers, ', ')
`;

/** A block that does not compile, to warm up the error path. */
const BROKEN_BLOCK = "local secret =\nreturn secret\n";

/** Compiles made at warm-up; enough for the parser's wasm functions to be compiled and hot. */
const WARM_UP_COMPILES = 20;

/**
 * Warms up the compile path: wasm functions are compiled lazily on their first call, so the
 * first compile in a process is about 20× slower than the next ones. This runs a few successful
 * compiles (parser, code generator, `string.dump`) and one failing compile, and checks that both
 * behave. It runs no Lua code: warming up the interpreter costs 50–100 ms and belongs to the layer
 * that runs Lua.
 */
export function warmUpCompiler(compiler: Compiler): void {
  for (let i = 0; i < WARM_UP_COMPILES; i++) {
    const result = compiler.compile(SAMPLE_BLOCK, "line 1");
    if (!result.ok) throw new Error(`Lua warm-up compile failed: ${result.diagnostic}`);
  }
  const broken = compiler.compile(BROKEN_BLOCK, "line 1");
  if (broken.ok) throw new Error("Lua warm-up: a broken block compiled");
}
