import Link from "next/link";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/app/_components/safe-callback";
import { currentPersonId } from "@/server/auth";
import { SignUpForm } from "./sign-up-form";
import { signInPath } from "@/server/auth";

export const dynamic = "force-dynamic";
export const metadata = { title: "Create an account · Shopping API" };

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await currentPersonId()) redirect(callbackUrl);
  return (
    <section className="auth-card" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create your account</h1>
      <p className="lede">
        Save your sizes and address once, and let the apps you choose shop with them.
      </p>
      <SignUpForm callbackUrl={callbackUrl} />
      <div className="auth-footer">
        <span>
          Already have an account? <Link href={signInPath(callbackUrl)}>Sign in</Link>
        </span>
      </div>
    </section>
  );
}
