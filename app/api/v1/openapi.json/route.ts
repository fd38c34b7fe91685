import { openApiDocumentNow } from "@/server/edges/rest/openapi";

export const dynamic = "force-dynamic";

// A minute of caching: a deprecation shows in the document soon after the operator announces it.
export const GET = async () =>
  Response.json(await openApiDocumentNow(), { headers: { "Cache-Control": "public, max-age=60" } });
