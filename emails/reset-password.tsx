/** Sent on "Forgot password": a link to a page where the person chooses a new password (opening it changes nothing). */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type ResetPasswordProps = { name?: string | null; resetUrl: string };

export const subject = () => "Reset your password";

export default function ResetPassword({
  name,
  resetUrl = "http://localhost:3000/reset-password?token=example",
}: ResetPasswordProps) {
  return (
    <EmailLayout
      preview="Choose a new password for your Shopping API account"
      heading="Reset your password"
      footer="You get this email because someone asked to reset the password of this account. If it was not you, ignore it: your password stays as it is."
    >
      <Text>Hi{name ? ` ${name}` : ""},</Text>
      <Text>
        Choose a new password with the button below. The link works for one hour and only once.
      </Text>
      <Button href={resetUrl} style={buttonStyle}>
        Choose a new password
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {resetUrl}</Text>
    </EmailLayout>
  );
}
