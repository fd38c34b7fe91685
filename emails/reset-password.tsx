/** Sent on "Forgot password": a link to a page where the person chooses a new password (opening it changes nothing). */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout, OrOpen, buttonStyle } from "./components/layout";

/** No times shown, so only the locale (rows written before issue 27 have none: English). */
export type ResetPasswordProps = Partial<Pick<Localised, "locale">> & {
  name?: string | null;
  resetUrl: string;
};

export const previewProps: ResetPasswordProps = {
  name: "Ana Tremblay",
  resetUrl: "http://localhost:3000/reset-password?token=example",
  locale: "en-CA",
};

export const subject = (props: Partial<ResetPasswordProps> = {}) =>
  emailIntl(props).t("auth.email.reset.subject");

export default function ResetPassword(props: ResetPasswordProps) {
  const { name, resetUrl } = props;
  const intl = emailIntl(props);
  const { t } = intl;
  return (
    <EmailLayout
      preview={t("auth.email.reset.preview")}
      heading={t("auth.email.reset.subject")}
      footer={t("auth.email.reset.footer")}
      intl={intl}
    >
      <Text>{name ? t("auth.email.hi", { name }) : t("auth.email.hiNoName")}</Text>
      <Text>{t("auth.email.reset.body")}</Text>
      <Button href={resetUrl} style={buttonStyle}>
        {t("auth.email.reset.button")}
      </Button>
      <OrOpen url={resetUrl} intl={intl} />
    </EmailLayout>
  );
}
