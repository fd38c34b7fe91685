import { authorizationServerMetadata } from "@/server/oauth";

export const dynamic = "force-dynamic";

/** RFC 8414 authorization server metadata. */
export const GET = () =>
  Response.json(authorizationServerMetadata(), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
