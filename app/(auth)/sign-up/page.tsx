import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { safeCallbackUrl } from "@/app/_components/safe-callback";
import { currentPersonId } from "@/server/auth";
import { SignUpForm } from "./sign-up-form";
import { signInPath } from "@/server/auth";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("auth.signUp"))("metaTitle"),
});

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await currentPersonId()) redirect(callbackUrl);
  const t = await getTranslations("auth.signUp");
  return (
    <section className="auth-card" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">{t("title")}</h1>
      <p className="lede">{t("lede")}</p>
      <SignUpForm callbackUrl={callbackUrl} />
      <div className="auth-footer">
        <span>
          {t("haveAccount")} <Link href={signInPath(callbackUrl)}>{t("signIn")}</Link>
        </span>
      </div>
    </section>
  );
}
