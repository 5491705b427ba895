// Packages the built extension into dist/runvil-vscode.vsix with vsce (pinned in package.json).
// It calls vsce's package command module, not the vsce CLI: the CLI loads its publishing code
// (the Azure identity client) on start even to package, and that code needs a dependency pnpm
// leaves out of workspaces installed before vsce was added (see docs/design/editor.md).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { packageCommand } = require("@vscode/vsce/out/package");

await packageCommand({
  packagePath: "dist/runvil-vscode.vsix",
  // The bundle has no runtime dependencies; pnpm's node_modules is not npm's layout either.
  dependencies: false,
  // The package is private: no LICENSE file of its own and no repository to link to.
  skipLicense: true,
  allowMissingRepository: true,
});
