/**
 * The one capped body reader: refuses a declared Content-Length over the limit before reading
 * anything, then reads the stream chunk by chunk and stops (cancelling the rest) as soon as the
 * limit is passed, so a chunked or lying body cannot fill the heap either. Each edge turns
 * `BodyTooLargeError` into its own 413 shape.
 */
export const maxFormBytes = 16 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body must be at most ${limit} bytes.`);
  }
}

/** The body's bytes, at most `limit` of them; throws BodyTooLargeError beyond. */
export const readCappedBytes = async (request: Request, limit: number): Promise<Uint8Array> => {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
};

/** The body as UTF-8 text, at most `limit` bytes. */
export const readCappedText = async (request: Request, limit: number) =>
  new TextDecoder().decode(await readCappedBytes(request, limit));
