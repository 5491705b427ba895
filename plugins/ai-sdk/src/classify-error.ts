import { ReplyRefused, StreamBroken } from "./round-errors";

/** What a failed attempt means for the round. */
export type ErrorClass =
  | { readonly kind: "retry"; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly kind: "context"; readonly detail: string }
  | { readonly kind: "auth"; readonly status: number }
  | { readonly kind: "missing-key" }
  | { readonly kind: "unknown-model"; readonly status: number }
  | { readonly kind: "bad-reply"; readonly detail: string }
  | { readonly kind: "refused"; readonly detail: string }
  | { readonly kind: "other" };

const CONTEXT =
  /context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|input is too long|exceeds? the (model'?s? )?(maximum|context)|context_length_exceeded|reduce the length/i;
const UNKNOWN_MODEL =
  /model[_ ]not[_ ]found|does not exist|not_found_error|unknown model|no such model|invalid model|model: /i;
const NETWORK =
  /fetch failed|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR|socket|terminated|network|cannot connect/i;

interface ApiErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly statusCode?: unknown;
  readonly responseHeaders?: unknown;
  readonly responseBody?: unknown;
  readonly isRetryable?: unknown;
  readonly cause?: unknown;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function header(headers: unknown, name: string): string | undefined {
  if (typeof headers !== "object" || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === "string") return value;
  }
  return undefined;
}

/**
 * The wait a response asks for: `retry-after-ms` (OpenAI), else `retry-after` in seconds or as
 * an HTTP date (`now` for the date's distance). Undefined when none or unreadable.
 */
export function retryAfterMs(headers: unknown, now: number = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const after = header(headers, "retry-after");
  if (after === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function retryReason(status: number | undefined, body: string): string {
  if (status === undefined) return "network failure";
  if (status === 429) return "rate limited (429)";
  if (status === 529 || /overloaded/i.test(body)) return `overloaded (${status})`;
  if (status === 408) return "request timeout (408)";
  if (status === 409) return "conflict (409)";
  return `server error (${status})`;
}

/** The first line of the server's message, short, for a model-safe failure text. */
function detailOf(message: string, body: string): string {
  let detail = message;
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const inner =
      typeof parsed.error === "object" && parsed.error !== null
        ? parsed.error.message
        : (parsed.error ?? parsed.message);
    if (typeof inner === "string" && inner !== "") detail = inner;
  } catch {
    // Not JSON: the error's own message.
  }
  const line = detail.split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * Classifies what a `doGenerate` / `doStream` attempt threw (an AI SDK APICallError,
 * LoadAPIKeyError, JSON and validation errors, a fetch failure, the adapter's own stream
 * errors): retried (429, 408, 409, 5xx, 529 overloaded, network failures, a broken stream),
 * a context-length refusal, an authentication or permission refusal, an unknown model, a
 * malformed reply, or anything else.
 */
export function classifyError(error: unknown, now: number = Date.now()): ErrorClass {
  if (error instanceof ReplyRefused) return { kind: "refused", detail: error.message };
  if (error instanceof StreamBroken) return { kind: "retry", reason: error.message };
  const e = (typeof error === "object" && error !== null ? error : {}) as ApiErrorLike;
  const name = text(e.name);
  const message = text(e.message);
  if (name === "AI_LoadAPIKeyError") return { kind: "missing-key" };
  if (
    name === "AI_JSONParseError" ||
    name === "AI_TypeValidationError" ||
    name === "AI_InvalidResponseDataError" ||
    name === "AI_EmptyResponseBodyError"
  ) {
    return { kind: "bad-reply", detail: message.split("\n")[0] ?? "" };
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : undefined;
  const body = text(e.responseBody);
  if (status === 401 || status === 403) return { kind: "auth", status };
  if (status !== undefined && status >= 200 && status < 300) {
    // A successful status whose body did not parse or did not fit the expected response.
    return { kind: "bad-reply", detail: message.split("\n")[0] ?? "" };
  }
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409) {
    if (status !== 429 && (CONTEXT.test(body) || CONTEXT.test(message))) {
      return { kind: "context", detail: detailOf(message, body) };
    }
    if ((status === 404 || status === 400) && (UNKNOWN_MODEL.test(body) || status === 404)) {
      return { kind: "unknown-model", status };
    }
  }
  if (
    status === 429 ||
    status === 408 ||
    status === 409 ||
    (status !== undefined && status >= 500)
  ) {
    const wait = retryAfterMs(e.responseHeaders, now);
    return {
      kind: "retry",
      reason: retryReason(status, body),
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    };
  }
  if (status === undefined) {
    const causeMessage = text((e.cause as ApiErrorLike | undefined)?.message);
    const causeCode = text((e.cause as { code?: unknown } | undefined)?.code);
    if (e.isRetryable === true || NETWORK.test(`${message} ${causeMessage} ${causeCode}`)) {
      return { kind: "retry", reason: "network failure" };
    }
    if (name === "AI_APICallError" && /invalid json|json/i.test(message)) {
      return { kind: "bad-reply", detail: message.split("\n")[0] ?? "" };
    }
  }
  return { kind: "other" };
}
