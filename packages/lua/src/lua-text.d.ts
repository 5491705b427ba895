/**
 * A `.lua` file imported as its text: tsup bundles it with esbuild's `text` loader, vitest through
 * the luaText plugin in vitest.config.ts. See docs/design/lua-files.md.
 */
declare module "*.lua" {
  const text: string;
  export default text;
}
