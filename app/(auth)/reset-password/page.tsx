import Link from "next/link";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { resetPasswordAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Choose a new password · Shopping API" };

/** Where the reset email's link lands: opening it changes nothing; the form sets the new password. */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const token = (await searchParams).token ?? "";
  const link = await (
    await pageCaller()
  ).shopperAuth
    .inspectPasswordReset({ token })
    .catch(() => undefined);
  if (!link) {
    return (
      <section className="auth-card">
        <h1>This link has expired</h1>
        <p className="lede">Reset links work for one hour and only once.</p>
        <Link href="/forgot-password" className="button primary">
          Send a new link
        </Link>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <p className="lede">
        For {link.email}. Other devices signed in to this account will be signed out.
      </p>
      <ActionForm action={resetPasswordAction}>
        <input type="hidden" name="token" value={token} />
        <FormMessage />
        <Field
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          required
        />
        <SubmitButton className="button primary block">Save the new password</SubmitButton>
      </ActionForm>
      <div className="auth-footer">
        <Link href="/sign-in">Sign in</Link>
      </div>
    </section>
  );
}
