import { currentPersonId } from "@/server/auth";
import { handleAuthorizeGet } from "@/server/oauth";
import { handleConsentDecision } from "@/server/oauth";

export const dynamic = "force-dynamic";

/** The authorization request (RFC 6749 4.1.1): validated, then on to the consent page. */
export const GET = (request: Request) => handleAuthorizeGet(request);

/** The person's decision, posted by the consent page's form. */
export const POST = async (request: Request) =>
  handleConsentDecision(request, { personId: await currentPersonId(), now: new Date() });
