/**
 * GET /oauth/authorize: validates the request (authorize-request.ts) and either shows an error
 * page (client or redirect URI unusable: no redirect), redirects back with `error`, or sends the
 * browser on to the consent page, which signs the person in first when needed. Limited per client
 * address (auth-limits.ts: requests, and metadata documents fetched), answering a 429 page.
 */
import { db, isDatabaseUnavailable } from "../platform/db";
import { AppError } from "../core/errors";
import { clientIp } from "../platform/http/client-ip";
import { admit, authLimits } from "../auth";
import { validateAuthorizeRequest } from "./authorize-request";
import { errorPage, redirectTo, redirectWithError } from "./pages";

/** Where the consent page for these authorize parameters lives. */
export const consentPath = (query: URLSearchParams) => `/oauth/consent?${query.toString()}`;

export const handleAuthorizeGet = async (request: Request): Promise<Response> => {
  const query = new URL(request.url).searchParams;
  const ip = clientIp(request.headers);
  try {
    // Per address: every request, and (tighter) every metadata document it makes us fetch.
    await admit(authLimits.authorizePerIp, ip);
    const result = await validateAuthorizeRequest(db(), query, {
      beforeFetch: () => admit(authLimits.metadataFetchesPerIp, ip),
    });
    if (result.kind === "page")
      return errorPage(result.status ?? 400, result.title, result.message, result.headers);
    if (result.kind === "redirect")
      return redirectWithError(result.redirectUri, result.error, result.state);
    return redirectTo(consentPath(query));
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") {
      const retryAfter = error.options.retryAfter ?? 60;
      return errorPage(
        429,
        "Too many requests",
        `Too many sign-in requests came from your network. Please try again in ${retryAfter} seconds.`,
        { "Retry-After": String(retryAfter) },
      );
    }
    // Without the database the redirect URI cannot be checked, so no redirect: a page asking to retry.
    if (isDatabaseUnavailable(error))
      return errorPage(
        503,
        "Temporarily unavailable",
        "We could not check this request just now. Please try again in a moment.",
        { "Retry-After": "5" },
      );
    throw error;
  }
};
