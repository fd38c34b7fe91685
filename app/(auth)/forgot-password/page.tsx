import Link from "next/link";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { requestResetAction } from "../actions";

export const metadata = { title: "Reset your password · Shopping API" };

export default function ForgotPasswordPage() {
  return (
    <section className="auth-card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      <p className="lede">
        Enter your account&apos;s email. We&apos;ll send a link to choose a new password.
      </p>
      <ActionForm action={requestResetAction}>
        <FormMessage okTone="info" />
        <Field name="email" label="Email" type="email" autoComplete="email" required />
        <SubmitButton className="button primary block">Send the link</SubmitButton>
      </ActionForm>
      <div className="auth-footer">
        <Link href="/sign-in">Back to sign in</Link>
      </div>
    </section>
  );
}
