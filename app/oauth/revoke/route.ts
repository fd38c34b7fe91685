import { handleRevokeRequest } from "@/server/auth/oauth/revoke-endpoint";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleRevokeRequest(request);
