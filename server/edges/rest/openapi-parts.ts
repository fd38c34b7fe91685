/** Building blocks of the OpenAPI document shared by the operation table's entries (server/api/). */
import { z } from "zod";

const ZError = z
  .object({
    error: z.object({
      code: z
        .string()
        .meta({ description: "Stable snake_case code; treat unknown codes as other" }),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: "Only on 422: field name to the reason" }),
    }),
  })
  .meta({
    id: "Error",
    example: {
      error: {
        code: "invalid_request",
        message: "Some fields are invalid.",
        fields: { per_page: "must be at most 48" },
      },
    },
  });

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ZError } },
});

/** The statuses every API endpoint may answer. */
export const commonErrors = {
  400: errorResponse(
    "The request line, path, query or a header cannot be read: malformed percent-encoding, a NUL, an unusable method (bad_request)",
  ),
  401: errorResponse(
    "Missing, invalid, expired or revoked access token (WWW-Authenticate: Bearer)",
  ),
  403: errorResponse("The token lacks the scope (insufficient_scope)"),
  422: errorResponse("Invalid request; fields names each bad field (invalid_request)"),
  429: errorResponse("Rate limit reached; retry after Retry-After seconds (rate_limited)"),
  431: errorResponse(
    "The request line and headers exceed 16 KiB (request_header_fields_too_large)",
  ),
  503: errorResponse(
    "A dependency is briefly unavailable; retry after Retry-After seconds (unavailable)",
  ),
};

/** What reading a JSON body may answer (server/edges/rest/json-body.ts). */
export const bodyErrors = {
  413: errorResponse("Body over 64 KiB (payload_too_large)"),
  415: errorResponse(
    "Body is not JSON, or is sent with a Content-Encoding (unsupported_media_type)",
  ),
};

export const ok = (schema: z.ZodType, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
