import { isAbsolute, relative } from "node:path";
import { findHostConfig, HOST_CONFIG_FILE } from "@runvil/host";

/** The name of the Host configuration file the CLI looks up. */
export const CONFIG_FILE_NAME = HOST_CONFIG_FILE;

/** `path` relative to the working directory when it lies inside it, else absolute. */
function displayPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? path : shown;
}

/**
 * The nearest `runvil.config.json` from `startDir` upward, as the Host finds it
 * (`findHostConfig`: the walk stops after the filesystem root and after a directory holding
 * `.git`), relative to the working directory when it lies inside it. Undefined when none.
 */
export async function findConfigFile(startDir: string): Promise<string | undefined> {
  const found = await findHostConfig(startDir);
  return found === undefined ? undefined : displayPath(found);
}
