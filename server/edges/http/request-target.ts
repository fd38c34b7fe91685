/**
 * Reads a request target strictly, for the front door and the lean API layer: only origin-form
 * (a path, then an optional query; a fragment is dropped), and percent-encoding that decodes to
 * UTF-8 without NUL (PostgreSQL text cannot hold it). Anything else is a 400 `bad_request`.
 */
import { AppError } from "../../core/errors";

export const badRequest = (message: string) => new AppError("bad_request", { message });

/** decodeURIComponent that refuses what it cannot decode, and NUL. */
const decodeStrict = (value: string, what: string) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    throw badRequest(`The ${what} has malformed percent-encoding.`);
  }
  if (decoded.includes("\0")) throw badRequest(`The ${what} contains a NUL character.`);
  return decoded;
};

/** The path and the query (with its "?", or "") of an origin-form target. */
export const splitTarget = (url: string) => {
  const target = url.split("#")[0];
  if (!target.startsWith("/")) throw badRequest("The request target must be a path (origin-form).");
  const queryAt = target.indexOf("?");
  return {
    target,
    pathname: queryAt === -1 ? target : target.slice(0, queryAt),
    query: queryAt === -1 ? "" : target.slice(queryAt),
  };
};

/** The decoded segments of a path ("/a/b%20c" gives ["a", "b c"]). */
export const decodePath = (pathname: string) =>
  pathname
    .split("/")
    .slice(1)
    .map((segment) => decodeStrict(segment, "path"));

/** Checks every name and value of a query string ("?a=1&b") decodes. */
export const checkQuery = (query: string) => {
  for (const part of query.slice(1).split("&"))
    for (const piece of part.split("=")) decodeStrict(piece.replace(/\+/g, " "), "query string");
};
