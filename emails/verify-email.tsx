/** Sent at sign-up: a link to a page with a button that confirms the address (opening it changes nothing). */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout, OrOpen, buttonStyle } from "./components/layout";

/** No times shown, so only the locale (rows written before issue 27 have none: English). */
export type VerifyEmailProps = Partial<Pick<Localised, "locale">> & {
  name?: string | null;
  confirmUrl: string;
};

export const previewProps: VerifyEmailProps = {
  name: "Ana Tremblay",
  confirmUrl: "http://localhost:3000/verify-email?token=example",
  locale: "en-CA",
};

export const subject = (props: Partial<VerifyEmailProps> = {}) =>
  emailIntl(props).t("auth.email.verify.subject");

export default function VerifyEmail(props: VerifyEmailProps) {
  const { name, confirmUrl } = props;
  const intl = emailIntl(props);
  const { t } = intl;
  return (
    <EmailLayout
      preview={t("auth.email.verify.preview")}
      heading={t("auth.email.verify.subject")}
      intl={intl}
    >
      <Text>{name ? t("auth.email.hi", { name }) : t("auth.email.hiNoName")}</Text>
      <Text>{t("auth.email.verify.body")}</Text>
      <Button href={confirmUrl} style={buttonStyle}>
        {t("auth.email.verify.button")}
      </Button>
      <OrOpen url={confirmUrl} intl={intl} />
    </EmailLayout>
  );
}
