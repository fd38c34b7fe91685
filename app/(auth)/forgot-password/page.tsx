import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { requestResetAction } from "../actions";

export const generateMetadata = async () => ({
  title: (await getTranslations("auth.forgot"))("metaTitle"),
});

export default async function ForgotPasswordPage() {
  const t = await getTranslations("auth.forgot");
  return (
    <section className="auth-card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t("title")}</h1>
      <p className="lede">{t("lede")}</p>
      <ActionForm action={requestResetAction}>
        <FormMessage okTone="info" />
        <Field name="email" label={t("email")} type="email" autoComplete="email" required />
        <SubmitButton className="button primary block">{t("submit")}</SubmitButton>
      </ActionForm>
      <div className="auth-footer">
        <Link href="/sign-in">{t("back")}</Link>
      </div>
    </section>
  );
}
