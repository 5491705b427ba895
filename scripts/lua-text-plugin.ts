import type { Plugin } from "vitest/config";

/**
 * Vite (so vitest) imports a `.lua` file as its text, as tsup's esbuild loader `{ ".lua": "text" }`
 * does in the build: the packages keep the Engine's own Lua in real files (docs/design/lua-files.md).
 */
export function luaText(): Plugin {
  return {
    name: "runvil-lua-text",
    enforce: "pre",
    transform(code, id) {
      if (!id.endsWith(".lua")) return null;
      return { code: `export default ${JSON.stringify(code)};`, map: null };
    },
  };
}
