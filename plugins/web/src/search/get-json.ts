import { ToolFailure } from "@runvil/sdk";
import { duration } from "../duration";
import { readCappedBody } from "../http/read-body";

/** The most bytes of a search service's answer that are read. */
const MAX_ANSWER_BYTES = 8_388_608;

/** A request to a search service's JSON API. */
export interface JsonRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Turns an HTTP error status into the model-safe reason of the failure. */
  readonly statusReason: (status: number) => string;
}

/** A failure whose message was written here, model-safe. */
class ServiceFailure extends ToolFailure {}

/**
 * GETs a JSON answer from a search service. Rejects with a ToolFailure whose message is
 * model-safe (it never names the service's URL or key, nor quotes anything the service sent):
 * `the search service could not be reached`,
 * `the search timed out after 20 seconds`, `the search was cancelled`, the `statusReason` of an
 * HTTP error status, `the search service's answer is too large` (over 8 MiB) or
 * `the search service's answer is not JSON`.
 */
export async function getJson(request: JsonRequest): Promise<unknown> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  try {
    const response = await fetch(request.url, { headers: request.headers, signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ServiceFailure(request.statusReason(response.status));
    }
    const body = await readCappedBody(response.body, MAX_ANSWER_BYTES);
    if (!body.ok) throw new ServiceFailure("the search service's answer is too large");
    try {
      return JSON.parse(new TextDecoder().decode(body.bytes)) as unknown;
    } catch (error) {
      throw new ServiceFailure("the search service's answer is not JSON", { cause: error });
    }
  } catch (error) {
    if (error instanceof ServiceFailure) throw error;
    if (request.signal.aborted) throw new ToolFailure("the search was cancelled", { cause: error });
    if (timeout.aborted) {
      throw new ToolFailure(`the search timed out after ${duration(request.timeoutMs)}`, {
        cause: error,
      });
    }
    throw new ToolFailure("the search service could not be reached", { cause: error });
  }
}

/** The usual reasons for a search service's HTTP error status. */
export function commonStatusReason(status: number): string {
  if (status === 401 || status === 403) {
    return `the search service refused the request (HTTP ${status})`;
  }
  if (status === 429) return "the search service's rate limit was reached (HTTP 429)";
  return `the search service answered HTTP ${status}`;
}

/** A string field of a JSON object, or `""` when absent or not a string. */
export function stringField(value: unknown, key: string): string {
  if (typeof value !== "object" || value === null) return "";
  const field: unknown = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : "";
}

/** The array at `path` inside a JSON answer, or `[]` when anything on the way is missing. */
export function arrayAt(answer: unknown, path: readonly string[]): unknown[] {
  let current = answer;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return [];
    current = (current as Record<string, unknown>)[key];
  }
  return Array.isArray(current) ? current : [];
}
