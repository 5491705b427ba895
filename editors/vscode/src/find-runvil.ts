import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CheckCommand } from "./run-check";

/**
 * The `runvil` to check a prompt with: the `runvil.path` setting when it is set, else the
 * nearest `node_modules/.bin/runvil` from the prompt's folder up, else `runvil` on the PATH.
 */
export function findRunvil(
  promptDir: string,
  setting: string,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = existsSync,
): CheckCommand {
  const windows = platform === "win32";
  const configured = setting.trim();
  if (configured !== "") {
    return { command: configured, args: [], shell: windows && /\.(cmd|bat)$/i.test(configured) };
  }
  const shim = windows ? "runvil.cmd" : "runvil";
  for (let dir = promptDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ".bin", shim);
    if (exists(candidate)) return { command: candidate, args: [], shell: windows };
    if (dirname(dir) === dir) break;
  }
  return { command: windows ? "runvil.cmd" : "runvil", args: [], shell: windows };
}
