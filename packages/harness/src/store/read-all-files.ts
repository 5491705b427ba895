import type { RunStore } from "@runvil/sdk";

/**
 * Every file of `store`, path to text (a scenario's `expect.store`, a run's
 * final files), read in bytewise path order. Fails like `read` on a file
 * that is not UTF-8 or over the file limit.
 */
export async function readAllFiles(store: RunStore): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of await store.list()) files[path] = await store.read(path);
  return files;
}
