import { currentPersonId } from "@/server/auth/session";
import { handleAuthorizeGet } from "@/server/auth/oauth/authorize-endpoint";
import { handleConsentDecision } from "@/server/auth/oauth/consent";

export const dynamic = "force-dynamic";

/** The authorization request (RFC 6749 4.1.1): validated, then on to the consent page. */
export const GET = (request: Request) => handleAuthorizeGet(request);

/** The person's decision, posted by the consent page's form. */
export const POST = async (request: Request) =>
  handleConsentDecision(request, { personId: await currentPersonId(), now: new Date() });
