/** The message of a response body cut off at the limit (recognised by the connection). */
export const TOO_LARGE_MESSAGE = "an MCP message exceeded the size limit";

/** An error for a message over the limit, with the limit. */
export class MessageTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`${TOO_LARGE_MESSAGE} of ${limit} bytes`);
    this.name = "MessageTooLarge";
    this.limit = limit;
  }
}

/**
 * `fetch` whose response bodies error with {@link MessageTooLarge} once they pass `maxBytes`,
 * so a Streamable HTTP server cannot make the client buffer an unbounded reply. `onTooLarge`
 * hears each such cut. (Each SSE event or JSON body is one MCP message or a batch; bounding
 * the whole response bounds them.)
 */
export function boundedFetch(
  maxBytes: number,
  onTooLarge: (error: MessageTooLarge) => void,
): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = response.body;
    if (body === null) return response;
    let seen = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) {
            const error = new MessageTooLarge(maxBytes);
            onTooLarge(error);
            controller.error(error);
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
