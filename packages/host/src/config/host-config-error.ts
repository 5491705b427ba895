/**
 * A `runvil.config.json` that cannot be used: not JSON, a key of the wrong type, a module that
 * cannot be found or loaded, an export that is not a plugin. The message starts with the file
 * as it was given, then the key path: `runvil.config.json: plugins[1].module must be a string`.
 */
export class HostConfigError extends Error {
  /** The configuration file, as given. */
  readonly file: string;

  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super(`${file}: ${detail}`, options);
    this.name = "HostConfigError";
    this.file = file;
  }
}
