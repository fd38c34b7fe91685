/**
 * What the authorization endpoint answers besides the consent page itself: redirects back to the
 * client (RFC 6749 4.1.2 and 4.1.2.1, with RFC 9207 `iss`) and small standalone HTML pages for
 * errors that must not redirect. Every answer refuses framing.
 */
import { env } from "../platform/env";
import type { AuthorizeError } from "./authorize-request";

/** Refuse framing (clickjacking of the consent page) and caching of anything here. */
const authorizeHeaders = {
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

/** The redirect URI with `params` added (its own query kept) and the issuer as `iss`. */
export const clientRedirectUrl = (
  redirectUri: string,
  params: Record<string, string | undefined>,
) => {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set("iss", env().PUBLIC_URL);
  return url.toString();
};

/** 303 back to the client with an error (and the state it sent). */
export const redirectWithError = (
  redirectUri: string,
  error: AuthorizeError,
  state: string | undefined,
) =>
  redirectTo(
    clientRedirectUrl(redirectUri, {
      error: error.error,
      error_description: error.description,
      state,
    }),
  );

export const redirectTo = (location: string) =>
  new Response(null, { status: 303, headers: { ...authorizeHeaders, Location: location } });

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** A standalone error page in the product's look (these answers come from a route, not a React page). */
export const errorPage = (
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Shopping API</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#fbf9f6;color:#1d1b19;line-height:1.5}
main{max-width:480px;margin:12vh auto;padding:32px;background:#fff;border:1px solid #e6e1da;border-radius:14px}
.brand{font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#9c3d2a;margin:0 0 12px}h1{font-size:1.4rem;margin:0 0 8px}p{color:#6b655f}a{color:#9c3d2a}</style></head>
<body><main role="alert"><p class="brand">Shopping API</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`,
    {
      status,
      headers: { ...authorizeHeaders, "Content-Type": "text/html; charset=utf-8", ...headers },
    },
  );
