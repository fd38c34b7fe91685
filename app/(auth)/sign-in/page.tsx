import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { safeCallbackUrl } from "@/app/_components/safe-callback";
import { currentPersonId } from "@/server/auth";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("auth.signIn"))("metaTitle"),
});

/** The shopper sign-in page; after sign-in the person continues where they were going (callbackUrl). */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; reset?: string }>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentPersonId()) redirect(callbackUrl);
  const t = await getTranslations("auth.signIn");
  const isAuthorizing = callbackUrl.startsWith("/oauth/");
  return (
    <section className="auth-card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t("title")}</h1>
      <p className="lede">{isAuthorizing ? t("ledeAuthorizing") : t("lede")}</p>
      {params.reset ? (
        <div className="notice ok" style={{ marginBottom: 16 }}>
          <p>{t("passwordChanged")}</p>
        </div>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} />
      <div className="auth-footer">
        <Link href={`/sign-up?callbackUrl=${encodeURIComponent(callbackUrl)}`}>
          {t("createAccount")}
        </Link>
        <Link href="/forgot-password">{t("forgot")}</Link>
      </div>
    </section>
  );
}
