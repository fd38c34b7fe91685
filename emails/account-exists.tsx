/** Sent when someone signs up with an address that already has an account (the sign-up page never says so). */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout, buttonStyle } from "./components/layout";

/** No times shown, so only the locale (rows written before issue 27 have none: English). */
export type AccountExistsProps = Partial<Pick<Localised, "locale">> & {
  name?: string | null;
  signInUrl: string;
  resetUrl: string;
};

export const previewProps: AccountExistsProps = {
  name: "Ana Tremblay",
  signInUrl: "http://localhost:3000/sign-in",
  resetUrl: "http://localhost:3000/forgot-password",
  locale: "en-CA",
};

export const subject = (props: Partial<AccountExistsProps> = {}) =>
  emailIntl(props).t("auth.email.accountExists.subject");

export default function AccountExists(props: AccountExistsProps) {
  const { name, signInUrl, resetUrl } = props;
  const intl = emailIntl(props);
  const { t } = intl;
  return (
    <EmailLayout
      preview={t("auth.email.accountExists.preview")}
      heading={t("auth.email.accountExists.subject")}
      footer={t("auth.email.accountExists.footer")}
      intl={intl}
    >
      <Text>{name ? t("auth.email.hi", { name }) : t("auth.email.hiNoName")}</Text>
      <Text>{t("auth.email.accountExists.body")}</Text>
      <Button href={signInUrl} style={buttonStyle}>
        {t("auth.email.accountExists.button")}
      </Button>
      <Text>
        {t("auth.email.accountExists.forgot")}{" "}
        <a href={resetUrl}>{t("auth.email.accountExists.resetLink")}</a>.
      </Text>
    </EmailLayout>
  );
}
