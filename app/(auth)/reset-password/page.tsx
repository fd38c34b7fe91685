import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { resetPasswordAction } from "../actions";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("auth.reset"))("metaTitle"),
});

/** Where the reset email's link lands: opening it changes nothing; the form sets the new password. */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const token = (await searchParams).token ?? "";
  const t = await getTranslations("auth.reset");
  const link = await (
    await pageCaller()
  ).shopperAuth
    .inspectPasswordReset({ token })
    .catch(() => undefined);
  if (!link) {
    return (
      <section className="auth-card" aria-labelledby="reset-title">
        <h1 id="reset-title">{t("expiredTitle")}</h1>
        <p className="lede">{t("expiredLede")}</p>
        <Link href="/forgot-password" className="button primary">
          {t("sendNew")}
        </Link>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title">{t("title")}</h1>
      <p className="lede">{t("lede", { email: link.email })}</p>
      <ActionForm action={resetPasswordAction}>
        <input type="hidden" name="token" value={token} />
        <FormMessage />
        <Field
          name="password"
          label={t("password")}
          type="password"
          autoComplete="new-password"
          hint={t("passwordHint")}
          required
        />
        <SubmitButton className="button primary block">{t("submit")}</SubmitButton>
      </ActionForm>
      <div className="auth-footer">
        <Link href="/sign-in">{t("signIn")}</Link>
      </div>
    </section>
  );
}
