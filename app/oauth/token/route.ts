import { handleTokenRequest } from "@/server/oauth";

export const POST = (request: Request) => handleTokenRequest(request);

const methodNotAllowed = () =>
  new Response(JSON.stringify({ error: "invalid_request", error_description: "Use POST." }), {
    status: 405,
    headers: { Allow: "POST", "Cache-Control": "no-store", "Content-Type": "application/json" },
  });
export const GET = methodNotAllowed;
