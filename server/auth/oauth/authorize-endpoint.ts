/**
 * GET /oauth/authorize: validates the request (authorize-request.ts) and either shows an error
 * page (client or redirect URI unusable: no redirect), redirects back with `error`, or sends the
 * browser on to the consent page, which signs the person in first when needed.
 */
import { db, isDatabaseUnavailable } from "../../db";
import { validateAuthorizeRequest } from "./authorize-request";
import { errorPage, redirectTo, redirectWithError } from "./pages";

/** Where the consent page for these authorize parameters lives. */
export const consentPath = (query: URLSearchParams) => `/oauth/consent?${query.toString()}`;

export const handleAuthorizeGet = async (request: Request): Promise<Response> => {
  const query = new URL(request.url).searchParams;
  try {
    const result = await validateAuthorizeRequest(db(), query);
    if (result.kind === "page") return errorPage(400, result.title, result.message);
    if (result.kind === "redirect") return redirectWithError(result.redirectUri, result.error, result.state);
    return redirectTo(consentPath(query));
  } catch (error) {
    // Without the database the redirect URI cannot be checked, so no redirect: a page asking to retry.
    if (isDatabaseUnavailable(error)) return errorPage(503, "Temporarily unavailable", "We could not check this request just now. Please try again in a moment.", { "Retry-After": "5" });
    throw error;
  }
};
