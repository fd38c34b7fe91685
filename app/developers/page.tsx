import Link from "next/link";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { applyAction } from "./actions";
import { ApplicationCard } from "./application-card";

export const dynamic = "force-dynamic";
export const metadata = { title: "Developer portal · Shopping API" };

/**
 * The partner developer portal. Partners sign in with an ordinary account (the same sign-in as
 * shoppers), apply for credentials, and manage the clients of their approved applications.
 */
export default async function DevelopersPage() {
  const caller = await pageCaller();
  const me = await caller.account.getMe().catch(() => undefined);
  if (!me) {
    return (
      <section className="hero">
        <h1>Developer portal</h1>
        <p>
          Apply for API credentials, manage your redirect URIs and rotate your client secret. Sign
          in with your account, or create one: partners and shoppers use the same sign-in.
        </p>
        <div className="button-row" style={{ marginTop: 20 }}>
          <Link className="button primary" href="/sign-in?callbackUrl=/developers">
            Sign in
          </Link>
          <Link className="button secondary" href="/sign-up?callbackUrl=/developers">
            Create an account
          </Link>
        </div>
      </section>
    );
  }
  const applications = await caller.developers.myApplications();
  return (
    <>
      <h1 className="page-title">Developer portal</h1>
      <p className="muted">
        Credentials for the <Link href="/docs">Shopping API</Link>. Sandbox applications are
        approved at once; production applications are reviewed by our team.
      </p>
      {applications.map((application) => (
        <ApplicationCard key={application.application_id} application={application} />
      ))}
      <section className="panel" aria-labelledby="apply-title">
        <h2 id="apply-title">Apply for credentials</h2>
        <p className="hint">
          You get a client ID and secret for client credentials (search, quotes, checkout links);
          with account linking, shoppers can also connect their accounts to your app.
        </p>
        {!me.email_verified ? (
          <div className="notice warn">
            <p>Confirm your email address first (see the link we emailed you).</p>
          </div>
        ) : (
          <ActionForm action={applyAction} resetOnSuccess>
            <FormMessage />
            <div className="row">
              <Field
                name="name"
                label="Application name"
                hint="Shoppers see it on the consent page."
              />
              <Field
                name="contact_email"
                label="Contact email"
                type="email"
                defaultValue={me.email}
                hint="Where we send notices about the API."
              />
            </div>
            <Field
              name="redirect_uris"
              label="Redirect URIs"
              hint="One per line, exactly as your app sends them: https, or http://localhost for development."
            >
              <textarea
                id="field-redirect_uris"
                name="redirect_uris"
                className="textarea"
                placeholder="https://app.example.com/oauth/callback"
              />
            </Field>
            <label
              className="opt-in"
              style={{ background: "var(--soft)", borderColor: "var(--line)" }}
            >
              <input type="checkbox" name="wants_linking" />
              <span>
                <strong>Account linking</strong>
                <span className="small muted">
                  Let shoppers connect their accounts (profile, orders, address, price alerts).
                </span>
              </span>
            </label>
            <div>
              <SubmitButton>Apply</SubmitButton>
            </div>
          </ActionForm>
        )}
      </section>
    </>
  );
}
