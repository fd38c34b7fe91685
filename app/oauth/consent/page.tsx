import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import { currentPersonId } from "@/server/auth";
import { consentPath } from "@/server/oauth";
import {
  createConsentToken,
  grantedOptInScopes,
  loadConsentRequest,
  newlyRequestedScopes,
} from "@/server/oauth";
import { ConsentForm } from "./consent-form";
import { UnverifiedNotice } from "./unverified-notice";
import { signInPath } from "@/server/auth";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("consent"))("metaTitle") };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const toQuery = (params: Awaited<SearchParams>) => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const item of [value ?? []].flat()) query.append(name, item);
  return query;
};

/**
 * The consent page (GET /oauth/authorize sends the browser here): who is asking, what for, and
 * Approve or Deny. Signs the person in first; a person whose email is unconfirmed cannot approve.
 */
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = toQuery(await searchParams);
  const personId = await currentPersonId();
  if (!personId) redirect(signInPath(consentPath(query)));
  const request = await loadConsentRequest(query);
  // The request changed since /oauth/authorize accepted it (e.g. the app was revoked): start again there.
  if (!request) redirect(`/oauth/authorize?${query.toString()}`);
  const [me, newScopes, grantedScopes] = await Promise.all([
    (await pageCaller()).account.getMe(),
    newlyRequestedScopes(personId, request.client.id, request.scopes),
    grantedOptInScopes(personId, request.client.id),
  ]);
  return (
    <section className="auth-card wide" aria-labelledby="consent-title">
      {me.email_verified ? (
        <ConsentForm
          request={{
            clientName: request.client.displayName,
            clientKind: request.client.kind,
            redirectUri: request.redirectUri,
            scopes: request.scopes,
            parameters: request.parameters,
          }}
          newScopes={newScopes}
          grantedScopes={grantedScopes}
          personEmail={me.email}
          consentToken={createConsentToken(personId, request.parameters, new Date())}
          consentPath={consentPath(query)}
        />
      ) : (
        <UnverifiedNotice clientName={request.client.displayName} email={me.email} />
      )}
    </section>
  );
}
