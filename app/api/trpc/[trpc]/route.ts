/** The browser's tRPC endpoint: the dashboard procedures only, with the session cookie (server/http/trpc-endpoint.ts). */
import { handleTrpcRequest } from "@/server/http/trpc-endpoint";

export const dynamic = "force-dynamic";

export const GET = handleTrpcRequest;
export const POST = handleTrpcRequest;
