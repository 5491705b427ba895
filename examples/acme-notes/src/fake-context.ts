import {
  type RunStore,
  type Services,
  StoreError,
  type StoreText,
  type ToolContext,
} from "@runvil/sdk";

function text(value: StoreText): string {
  return typeof value === "string" ? value : new TextDecoder().decode(value);
}

function notFound(path: string): StoreError {
  return new StoreError({ reason: "not_found", path, message: `${path}: not found` });
}

/**
 * A RunStore over a Map, enough for the Pack's tests (tests only; a real run gets the Harness's
 * store). `directories` names paths that hold a directory, so reads and deletes of them fail
 * with `not_a_file` like the real stores.
 */
export class FakeStore implements RunStore {
  readonly files = new Map<string, string>();
  readonly directories = new Set<string>();

  constructor(files: Record<string, string> = {}) {
    for (const [path, contents] of Object.entries(files)) this.files.set(path, contents);
  }

  #checkFile(path: string): void {
    if (this.directories.has(path)) {
      throw new StoreError({ reason: "not_a_file", path, message: `${path}: is a directory` });
    }
  }

  async read(path: StoreText): Promise<string> {
    const key = text(path);
    this.#checkFile(key);
    const contents = this.files.get(key);
    if (contents === undefined) throw notFound(key);
    return contents;
  }

  async write(path: StoreText, contents: StoreText): Promise<void> {
    this.#checkFile(text(path));
    this.files.set(text(path), text(contents));
  }

  async append(path: StoreText, addition: StoreText): Promise<void> {
    this.#checkFile(text(path));
    this.files.set(text(path), (this.files.get(text(path)) ?? "") + text(addition));
  }

  async edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    const contents = await this.read(path);
    this.files.set(text(path), contents.replace(text(oldText), text(newText)));
  }

  async delete(path: StoreText): Promise<void> {
    const key = text(path);
    this.#checkFile(key);
    if (!this.files.delete(key)) throw notFound(key);
  }

  async exists(path: StoreText): Promise<boolean> {
    return this.files.has(text(path));
  }

  async list(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }

  async glob(): Promise<string[]> {
    return this.list();
  }
}

const noServices: Services = {
  has: () => false,
  get: () => undefined,
};

/** A ToolContext for calling a tool's `run` directly in a test. */
export function fakeContext(store: RunStore, toolId: string): ToolContext {
  return {
    services: noServices,
    store,
    signal: new AbortController().signal,
    origin: { execution: "run-1", section: "Main", caller: "script", chain: "0", entry: "0.1" },
    toolId,
    name: toolId.replace("/", "_"),
  };
}
