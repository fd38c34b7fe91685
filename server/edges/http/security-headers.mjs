/**
 * Headers on every response of the site: next.config.mjs `headers()` applies them to what Next
 * answers, and the lean API layer (server/edges/http/node-response.ts) to what it answers. One list.
 * No page of this site may be framed by another (clickjacking of consent, account and checkout pages).
 */
export const securityHeaders = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
];
