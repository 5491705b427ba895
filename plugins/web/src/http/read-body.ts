/** The outcome of reading a body under a byte cap. */
export type CappedBody =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly tooLarge: true };

/**
 * Reads a response body, stopping (and cancelling the rest of the stream) as soon as more than
 * `maxBytes` bytes have arrived, so a huge or endless body costs at most `maxBytes` of memory.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, tooLarge: true };
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return { ok: true, bytes: concat(chunks, total) };
}

/**
 * Reads a body given as chunks (a Node stream), stopping as soon as more than `maxBytes` bytes
 * have arrived: leaving the loop early ends the stream, so a huge or endless body costs at most
 * `maxBytes` of memory.
 */
export async function readCappedChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<CappedBody> {
  const kept: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > maxBytes) return { ok: false, tooLarge: true };
    kept.push(chunk);
  }
  return { ok: true, bytes: concat(kept, total) };
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
