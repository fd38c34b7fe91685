import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { confirmEmailAction } from "../actions";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("auth.verify"))("metaTitle"),
});

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
  const t = await getTranslations("auth.verify");
  const link = await (
    await pageCaller()
  ).shopperAuth
    .inspectConfirmation({ token })
    .catch(() => undefined);
  if (!link) {
    return (
      <section className="auth-card" aria-labelledby="verify-title">
        <h1 id="verify-title">{t("expiredTitle")}</h1>
        <p className="lede">{t("expiredLede")}</p>
        <Link href="/sign-in?callbackUrl=/account" className="button primary">
          {t("signIn")}
        </Link>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="verify-title">
      <h1 id="verify-title">{t("title")}</h1>
      <p className="lede">
        {t.rich("lede", { email: link.email, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      {link.already_confirmed ? (
        <div className="notice ok">
          <p>{t("already")}</p>
        </div>
      ) : (
        <ActionForm action={confirmEmailAction}>
          <input type="hidden" name="token" value={token} />
          <FormMessage />
          <SubmitButton className="button primary block" once>
            {t("submit")}
          </SubmitButton>
        </ActionForm>
      )}
      <div className="auth-footer">
        <Link href="/account">{t("toAccount")}</Link>
      </div>
    </section>
  );
}
