/** The placeholder that stands for the run's nonce in exact expected strings. */
export const NONCE_PLACEHOLDER = "NONCE";

/** Replaces every `NONCE` in `text` with the run's nonce (unchanged when there is none). */
export function withNonce(text: string, nonce: string | undefined): string {
  return nonce === undefined ? text : text.replaceAll(NONCE_PLACEHOLDER, nonce);
}

/** {@link withNonce} on every string value inside JSON data (mapping keys are left alone). */
export function withNonceDeep<T>(value: T, nonce: string | undefined): T {
  if (nonce === undefined) return value;
  return replaceDeep(value, nonce) as T;
}

function replaceDeep(value: unknown, nonce: string): unknown {
  if (typeof value === "string") return withNonce(value, nonce);
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, nonce));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceDeep(item, nonce)]),
    );
  }
  return value;
}
