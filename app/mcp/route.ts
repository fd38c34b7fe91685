import { mcpRoute } from "@/server/edges/mcp/edge";

export const dynamic = "force-dynamic";

/** The public assistant connector (MCP, no sign-in): catalogue, quotes and checkout links. */
export const POST = mcpRoute("public");
export const GET = POST;
export const DELETE = POST;
