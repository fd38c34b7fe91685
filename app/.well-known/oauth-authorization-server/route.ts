import { authorizationServerMetadata } from "@/server/auth";

export const dynamic = "force-dynamic";

/** RFC 8414 authorization server metadata. */
export const GET = () =>
  Response.json(authorizationServerMetadata(), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
