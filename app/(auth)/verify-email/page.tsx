import Link from "next/link";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { confirmEmailAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Confirm your email · Shopping API" };

/**
 * Where the confirmation email's link lands. Opening it changes nothing (mail scanners open
 * links); the button posts the confirmation.
 */
export default async function VerifyEmailPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const token = (await searchParams).token ?? "";
  const link = await (
    await pageCaller()
  ).shopperAuth
    .inspectConfirmation({ token })
    .catch(() => undefined);
  if (!link) {
    return (
      <section className="auth-card">
        <h1>This link has expired</h1>
        <p className="lede">
          Confirmation links work for 24 hours, for the address they were sent to. Sign in to send a
          new one from your account.
        </p>
        <Link href="/sign-in?callbackUrl=/account" className="button primary">
          Sign in
        </Link>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="verify-title">
      <h1 id="verify-title">Confirm your email address</h1>
      <p className="lede">
        Confirm that <strong>{link.email}</strong> is your address.
      </p>
      {link.already_confirmed ? (
        <div className="notice ok">
          <p>This address is already confirmed.</p>
        </div>
      ) : (
        <ActionForm action={confirmEmailAction}>
          <input type="hidden" name="token" value={token} />
          <FormMessage />
          <SubmitButton className="button primary block">Confirm my email</SubmitButton>
        </ActionForm>
      )}
      <div className="auth-footer">
        <Link href="/account">Go to your account</Link>
      </div>
    </section>
  );
}
