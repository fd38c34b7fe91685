import { openApiDocument } from "@/server/http/openapi";

export const dynamic = "force-dynamic";

export const GET = () => Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
