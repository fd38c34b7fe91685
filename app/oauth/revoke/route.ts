import { handleRevokeRequest } from "@/server/auth";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleRevokeRequest(request);
