/** Sent at sign-up: a link to a page with a button that confirms the address (opening it changes nothing). */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type VerifyEmailProps = { name?: string | null; confirmUrl: string };

export const subject = () => "Confirm your email address";

export default function VerifyEmail({
  name,
  confirmUrl = "http://localhost:3000/verify-email?token=example",
}: VerifyEmailProps) {
  return (
    <EmailLayout
      preview="Confirm your email address to finish setting up your account"
      heading="Confirm your email address"
    >
      <Text>Hi{name ? ` ${name}` : ""},</Text>
      <Text>
        Confirm this address to approve apps and assistants that act for you. The link works for 24
        hours.
      </Text>
      <Button href={confirmUrl} style={buttonStyle}>
        Confirm my email
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {confirmUrl}</Text>
    </EmailLayout>
  );
}
