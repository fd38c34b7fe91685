/** Sent when someone signs up with an address that already has an account (the sign-up page never says so). */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type AccountExistsProps = { name?: string | null; signInUrl: string; resetUrl: string };

export const subject = () => "You already have an account";

export default function AccountExists({
  name,
  signInUrl = "http://localhost:3000/sign-in",
  resetUrl = "http://localhost:3000/forgot-password",
}: AccountExistsProps) {
  return (
    <EmailLayout
      preview="Someone tried to create an account with this address"
      heading="You already have an account"
      footer="You get this email because someone tried to sign up with this address. If it was not you, nothing changed."
    >
      <Text>Hi{name ? ` ${name}` : ""},</Text>
      <Text>
        Someone, probably you, tried to create a Shopping API account with this email address. It
        already has one.
      </Text>
      <Button href={signInUrl} style={buttonStyle}>
        Sign in
      </Button>
      <Text>
        Forgot your password? <a href={resetUrl}>Reset it</a>.
      </Text>
    </EmailLayout>
  );
}
