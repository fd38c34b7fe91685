/**
 * The protected-resource metadata of our two resource servers (RFC 9728; RELIABILITY C4), as an
 * OAuth client reads it after a 401's `resource_metadata`: each names itself as the resource its
 * tokens are bound to, this server as the one authorization server, the header as the one way to
 * send a token, and the scopes it accepts. The account connector never offers purchase:write (an
 * assistant buys through the REST API's opt-in) nor offline_access (not a scope here).
 */
import { describe, expect, it } from "vitest";
import { GET as restMetadata } from "@/app/.well-known/oauth-protected-resource/api/v1/route";
import { GET as connectorMetadata } from "@/app/.well-known/oauth-protected-resource/mcp/account/route";
import { mcpAccountScopes } from "./edge";
import { allScopes } from "../../auth";

const origin = "http://localhost:3000";

describe("protected-resource metadata", () => {
  it("of the REST API: resource /api/v1, this authorization server, every scope, header only", async () => {
    const response = restMetadata();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: `${origin}/api/v1`,
      authorization_servers: [origin],
      scopes_supported: allScopes,
      bearer_methods_supported: ["header"],
    });
  });

  it("of the account connector: resource /mcp/account, its tools' scopes, never purchase:write or offline_access", async () => {
    const response = connectorMetadata();
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document).toMatchObject({
      resource: `${origin}/mcp/account`,
      authorization_servers: [origin],
      scopes_supported: mcpAccountScopes,
      bearer_methods_supported: ["header"],
    });
    expect(document.scopes_supported).not.toContain("purchase:write");
    expect(document.scopes_supported).not.toContain("offline_access");
  });
});
