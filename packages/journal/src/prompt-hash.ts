import { createHash } from "node:crypto";

/** The prompt's hash as the journal keeps it: `sha256:` and 64 hex digits of its bytes. */
export function promptHash(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
