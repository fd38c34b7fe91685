/** The operation label of requests that are not /api/v1 operations: a few names by path prefix, never the path (label cardinality). */
import { describe, expect, it } from "vitest";
import { coarseOperation } from "./request-telemetry";

describe("coarseOperation", () => {
  it.each([
    ["/", "page"],
    ["/account/limits", "page"],
    ["/purchases/pur_1/cancel", "page"],
    ["/_next/static/chunks/app.js", "static"],
    ["/favicon.ico", "static"],
    ["/mcp", "mcp"],
    ["/mcp/account", "mcp"],
    ["/oauth/token", "oauth"],
    ["/.well-known/oauth-authorization-server", "oauth"],
    ["/api/trpc/account.getMe", "trpc"],
    ["/api/inngest", "inngest"],
    ["/stripe/webhook", "stripe_webhook"],
    ["/healthz", "probe"],
    ["/readyz", "probe"],
    ["/metrics", "metrics"],
    ["/api/v1/no/such/thing", "other"],
    ["/api/v1", "other"],
    ["/api/elsewhere", "other"],
  ])("%s is %s", (path, operation) => {
    expect(coarseOperation(path)).toBe(operation);
  });
});
