import { allScopes } from "@/server/auth";
import { env } from "@/server/platform/env";

export const dynamic = "force-dynamic";

/** RFC 9728 metadata of the REST API as a protected resource. */
export const GET = () =>
  Response.json({
    resource: `${env().PUBLIC_URL}/api/v1`,
    authorization_servers: [env().PUBLIC_URL],
    scopes_supported: allScopes,
    bearer_methods_supported: ["header"],
    resource_name: "Shopping API",
    resource_documentation: `${env().PUBLIC_URL}/docs`,
  });
