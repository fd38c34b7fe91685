import Link from "next/link";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/app/_components/safe-callback";
import { currentPersonId } from "@/server/auth";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Shopping API" };

/** The shopper sign-in page; after sign-in the person continues where they were going (callbackUrl). */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; reset?: string }>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentPersonId()) redirect(callbackUrl);
  const isAuthorizing = callbackUrl.startsWith("/oauth/");
  return (
    <section className="auth-card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <p className="lede">
        {isAuthorizing
          ? "Sign in to review what the app is asking for."
          : "Your sizes, saved address and connected apps."}
      </p>
      {params.reset ? (
        <div className="notice ok" style={{ marginBottom: 16 }}>
          <p>Your password was changed. Sign in with the new one.</p>
        </div>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} />
      <div className="auth-footer">
        <Link href={`/sign-up?callbackUrl=${encodeURIComponent(callbackUrl)}`}>
          Create an account
        </Link>
        <Link href="/forgot-password">Forgot your password?</Link>
      </div>
    </section>
  );
}
