/**
 * The browser's tRPC client: the dashboard procedures at /api/trpc (server/edges/trpc/dashboard.ts).
 * httpLink sends queries as GET and mutations as POST with a JSON body; fetch sends the session
 * cookie on same-origin requests and the browser adds the Origin header the endpoint checks.
 */
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { DashboardRouter } from "@/server/edges/trpc/dashboard";

export const dashboardClient = createTRPCClient<DashboardRouter>({
  links: [httpLink({ url: "/api/trpc" })],
});

/** The per-field reasons of a refused call (422 invalid_request), or undefined. */
export const fieldErrorsOf = (error: unknown): Record<string, string> | undefined =>
  error instanceof TRPCClientError
    ? (error.data as { fields?: Record<string, string> } | undefined)?.fields
    : undefined;

/** A sentence for the person: our message for a refusal, a generic one when the network failed. */
export const messageOf = (error: unknown) =>
  error instanceof TRPCClientError && error.data
    ? error.message
    : "We could not reach the service. Check your connection and try again.";
