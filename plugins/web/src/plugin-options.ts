/** How long one search may take by default: 20 seconds. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 20_000;

/** `options` as an object to read keys from; a TypeError when it is missing or not an object. */
export function optionsObject(options: unknown): Record<string, unknown> {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError("options must be an object");
  }
  return options as Record<string, unknown>;
}

/** The `timeoutMs` option checked: the default when absent, else a positive number. */
export function checkTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_SEARCH_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError("options.timeoutMs must be a positive number");
  }
  return timeoutMs;
}

/** A required non-empty string option. */
export function requiredString(
  options: Record<string, unknown>,
  key: string,
  what: string,
): string {
  const value = options[key];
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`options.${key} must be ${what}`);
  }
  return value;
}

/** A URL option: parsed, and http or https; a TypeError naming the key otherwise. */
export function httpUrlOption(text: string, key: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`options.${key} is not a valid URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`options.${key} must be an http or https URL: ${text}`);
  }
  return url;
}
