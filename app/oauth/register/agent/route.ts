import { handleAgentRegistration } from "@/server/oauth";

export const dynamic = "force-dynamic";

/** RFC 7591 registration for assistants (public clients). */
export const POST = (request: Request) => handleAgentRegistration(request);
