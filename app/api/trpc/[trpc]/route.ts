/** The browser's tRPC endpoint: the dashboard procedures only, with the session cookie (server/edges/http/trpc-endpoint.ts). */
import { handleTrpcRequest } from "@/server/edges/http/trpc-endpoint";

export const dynamic = "force-dynamic";

export const GET = handleTrpcRequest;
export const POST = handleTrpcRequest;
