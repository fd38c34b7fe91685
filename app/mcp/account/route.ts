import { mcpRoute } from "@/server/edges/mcp/edge";

export const dynamic = "force-dynamic";

/** The account connector (MCP, OAuth 2.1 sign-in; tokens for the /mcp/account audience only). */
export const POST = mcpRoute("account");
export const GET = POST;
export const DELETE = POST;
