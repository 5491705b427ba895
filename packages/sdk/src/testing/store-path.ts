import type { StoreText } from "../store";
import { storeFailure } from "./store-failures";
import { byteLength, decodeStoreText, lossyText } from "./store-text";

/** A valid store path and its segments. */
export interface StorePath {
  readonly path: string;
  readonly segments: readonly string[];
}

/** Why a path breaks the path grammar (docs/design/store.md, "Paths"), or undefined. */
function pathDetail(path: string): string | undefined {
  if (path === "") return "the path is empty";
  if (byteLength(path) > 1024) return "longer than 1024 bytes";
  if (path.startsWith("/")) return "absolute paths are not allowed";
  for (const segment of path.split("/")) {
    if (segment === "") return "empty segment";
    if (segment === "." || segment === "..") return "'.' and '..' segments are not allowed";
    for (let i = 0; i < segment.length; i++) {
      const unit = segment.charCodeAt(i);
      if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) {
        return "control characters are not allowed";
      }
      if (unit === 0x5c) return "backslashes are not allowed";
    }
    if (byteLength(segment) > 255) return "a segment is longer than 255 bytes";
    if (segment.startsWith(".runvil-tmp")) return "names starting with .runvil-tmp are reserved";
  }
  return undefined;
}

/** The valid store path in `input`; throws an `invalid_path` StoreError otherwise. */
export function parseStorePath(input: StoreText): StorePath {
  const decoded = decodeStoreText(input);
  if (!decoded.ok) {
    throw storeFailure("invalid_path", lossyText(input), "invalid path: not valid UTF-8");
  }
  const detail = pathDetail(decoded.text);
  if (detail !== undefined) {
    throw storeFailure("invalid_path", decoded.text, `invalid path: ${detail}`);
  }
  return { path: decoded.text, segments: decoded.text.split("/") };
}
