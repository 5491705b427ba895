import { type RunStore, StoreError, type StoreErrorReason, type StoreText } from "@runvil/sdk";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A tiny in-memory RunStore for tests (the real backends live in the Harness): files in a Map,
 * the sdk's reasons for the failures the Engine's tests need.
 */
export class MemoryStore implements RunStore {
  readonly files = new Map<string, string>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [path, text] of Object.entries(initial)) this.files.set(path, text);
  }

  async read(path: StoreText): Promise<string> {
    const at = checkPath(path);
    const text = this.files.get(at);
    if (text === undefined) throw failure("not_found", at, `${at}: not found`);
    return text;
  }

  async write(path: StoreText, contents: StoreText): Promise<void> {
    const at = checkPath(path);
    this.files.set(at, utf8(at, contents));
  }

  async append(path: StoreText, text: StoreText): Promise<void> {
    const at = checkPath(path);
    this.files.set(at, (this.files.get(at) ?? "") + utf8(at, text));
  }

  async edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    const at = checkPath(path);
    const text = await this.read(at);
    const anchor = utf8(at, oldText);
    const count = text.split(anchor).length - 1;
    if (count === 0) {
      throw failure("anchor_not_found", at, `${at}: anchor not found`, { count });
    }
    if (count > 1) {
      throw failure("anchor_not_unique", at, `${at}: anchor found ${count} times`, { count });
    }
    const replacement = utf8(at, newText);
    this.files.set(
      at,
      text.replace(anchor, () => replacement),
    );
  }

  async delete(path: StoreText): Promise<void> {
    const at = checkPath(path);
    if (!this.files.delete(at)) throw failure("not_found", at, `${at}: not found`);
  }

  async exists(path: StoreText): Promise<boolean> {
    return this.files.has(checkPath(path));
  }

  async list(prefix?: StoreText): Promise<string[]> {
    const dir = prefix === undefined || prefix === "" ? "" : `${checkPath(prefix)}/`;
    return this.sorted().filter((path) => path.startsWith(dir));
  }

  async glob(pattern: StoreText): Promise<string[]> {
    const regex = globRegex(utf8("", pattern));
    return this.sorted().filter((path) => regex.test(path));
  }

  /** The files as a plain record, sorted by path. */
  snapshot(): Record<string, string> {
    return Object.fromEntries(this.sorted().map((path) => [path, this.files.get(path) ?? ""]));
  }

  private sorted(): string[] {
    return [...this.files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

function utf8(path: string, text: StoreText): string {
  if (typeof text === "string") return text;
  try {
    return strictUtf8.decode(text);
  } catch {
    let validUpTo = 0;
    while (validUpTo < text.length) {
      try {
        strictUtf8.decode(text.subarray(0, validUpTo + 1));
        validUpTo++;
      } catch {
        break;
      }
    }
    throw failure("invalid_utf8", path, `${path}: contents are not valid UTF-8`, { validUpTo });
  }
}

function checkPath(path: StoreText): string {
  const text = typeof path === "string" ? path : new TextDecoder().decode(path);
  if (
    typeof path !== "string" ||
    text === "" ||
    text.startsWith("/") ||
    text.includes("\0") ||
    text.split("/").includes("..")
  ) {
    throw failure("invalid_path", text, `${text}: invalid path`);
  }
  return text;
}

function failure(
  reason: StoreErrorReason,
  path: string,
  message: string,
  extra: { count?: number; validUpTo?: number } = {},
): StoreError {
  return new StoreError({ reason, path, message, ...extra });
}

function globRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
