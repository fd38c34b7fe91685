/**
 * Reads a JSON request body for the REST wrapper: 415 unless the Content-Type is JSON and the body
 * is sent as is (a Content-Encoding such as gzip is not decoded here: RFC 7694 answers it 415,
 * where reading the compressed bytes as JSON would be a misleading 422), 413 past the size limit
 * (checked on Content-Length and again while streaming, so a chunked body cannot slip past), 422
 * naming `body` when it is not valid JSON. An empty body reads as undefined.
 */
import { AppError } from "../../core/errors";
import { BodyTooLargeError, readCappedBytes } from "../../platform/http/read-body";

const defaultMaxBodyBytes = 64 * 1024;

const isJsonType = (contentType: string | null) => {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
};

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", { message: `The body must be at most ${limit} bytes.` });

/** The parsed body, or undefined when there is none. */
export const readJsonBody = async (
  request: Request,
  limit = defaultMaxBodyBytes,
): Promise<unknown> => {
  const bytes = await readCappedBytes(request, limit).catch((error: unknown) => {
    throw error instanceof BodyTooLargeError ? tooLarge(limit) : error;
  });
  if (bytes.byteLength === 0) return undefined;
  if (!isJsonType(request.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", {
      message: "The body must be JSON (Content-Type: application/json).",
    });
  }
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity") {
    throw new AppError("unsupported_media_type", {
      message: "Send the body uncompressed: no Content-Encoding is accepted.",
      headers: { "Accept-Encoding": "identity" },
    });
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("invalid_request", { fields: { body: "is not valid JSON" } });
  }
};
