import Link from "next/link";
import { useTranslations } from "next-intl";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { resendConfirmationAction } from "@/app/account/actions";

/** Shown instead of the consent form until the person confirms their email address. */
export function UnverifiedNotice({ clientName, email }: { clientName: string; email: string }) {
  const t = useTranslations("consent.unverified");
  return (
    <div>
      <h1 id="consent-title" style={{ fontSize: "1.3rem" }}>
        {t("heading", { app: clientName })}
      </h1>
      <p className="lede">
        {t.rich("lede", { email, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <ActionForm action={resendConfirmationAction}>
        <FormMessage okTone="info" />
        <div className="button-row">
          <SubmitButton>{t("resend")}</SubmitButton>
          <Link className="button secondary" href="/account">
            {t("account")}
          </Link>
        </div>
      </ActionForm>
    </div>
  );
}
