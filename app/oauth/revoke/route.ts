import { handleRevokeRequest } from "@/server/oauth";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleRevokeRequest(request);
