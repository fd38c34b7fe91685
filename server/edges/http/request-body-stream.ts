/**
 * A node request body as a web ReadableStream, for the route handlers the lean layer calls.
 * Node 20's `Readable.toWeb` throws `ERR_INVALID_STATE: Controller is already closed` as an
 * uncaught exception when the web stream is cancelled (the capped body reader does that past its
 * limit) and the node stream then ends or fails; here every controller call checks that the stream
 * is still open. Back-pressure: the request is paused while the stream's queue is full. A cancelled
 * body is drained and discarded, so the connection can still carry the refusal (413).
 */
import type { IncomingMessage } from "node:http";

export const requestBodyStream = (request: IncomingMessage): ReadableStream<Uint8Array> => {
  let isOpen = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.on("data", (chunk: Buffer) => {
        if (!isOpen) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      });
      request.once("end", () => {
        if (!isOpen) return;
        isOpen = false;
        controller.close();
      });
      const fail = (error: Error) => {
        if (!isOpen) return;
        isOpen = false;
        controller.error(error);
      };
      request.once("error", fail);
      // A client that goes away mid-body: the handler's read fails instead of waiting forever.
      request.once("close", () =>
        fail(new Error("The client closed the connection before the body ended.")),
      );
    },
    pull() {
      request.resume();
    },
    cancel() {
      isOpen = false;
      request.resume();
    },
  });
};
