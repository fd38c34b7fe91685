import { mcpAccountPath } from "@/server/auth";
import { env } from "@/server/platform/env";
import { mcpAccountScopes } from "@/server/edges/mcp/edge";

export const dynamic = "force-dynamic";

/** RFC 9728 metadata of the account connector as a protected resource (MCP authorization, 2025-11-25). */
export const GET = () =>
  Response.json(
    {
      resource: `${env().PUBLIC_URL}${mcpAccountPath}`,
      authorization_servers: [env().PUBLIC_URL],
      scopes_supported: mcpAccountScopes,
      bearer_methods_supported: ["header"],
      resource_name: "Shopping API account connector (MCP)",
      resource_documentation: `${env().PUBLIC_URL}/docs`,
    },
    { headers: { "Cache-Control": "public, max-age=300" } },
  );
