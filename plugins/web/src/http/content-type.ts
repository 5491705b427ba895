/** A parsed Content-Type header. */
export interface ContentType {
  /** The media type in lower case, such as `text/html`; `""` when the header is absent or empty. */
  readonly mediaType: string;
  /** The charset parameter in lower case, or undefined when none is given. */
  readonly charset: string | undefined;
}

/** How web/fetch turns a body of some media type into text. */
export type BodyKind = "html" | "json" | "text" | "unknown" | "binary";

/** Parses a Content-Type header value (`text/html; charset=UTF-8`). */
export function parseContentType(header: string | null): ContentType {
  if (header === null) return { mediaType: "", charset: undefined };
  const [type = "", ...params] = header.split(";");
  let charset: string | undefined;
  for (const param of params) {
    const equals = param.indexOf("=");
    if (equals === -1) continue;
    if (param.slice(0, equals).trim().toLowerCase() !== "charset") continue;
    const value = param
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (value !== "") charset = value;
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** Media types outside text/* that are text all the same (scripts, data formats). */
const TEXT_APPLICATION_TYPES = new Set([
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-ndjson",
]);

/**
 * Which kind of body a media type is: HTML (`text/html`, `application/xhtml+xml`), JSON
 * (`application/json`, `*+json`), other text (`text/*`, `*+xml`, scripts, YAML, TOML), unknown
 * (no type given: sniffed from the bytes), or binary (everything else: images, PDFs, ...).
 */
export function bodyKind(mediaType: string): BodyKind {
  if (mediaType === "") return "unknown";
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/json" || mediaType.endsWith("+json")) return "json";
  if (mediaType.startsWith("text/")) return "text";
  if (mediaType.endsWith("+xml") || TEXT_APPLICATION_TYPES.has(mediaType)) return "text";
  return "binary";
}
