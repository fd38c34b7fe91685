/** Sent to a partner client's owner when one of its webhook endpoints is disabled after failing for 5 days. */
import { Text } from "@react-email/text";
import { EmailLayout } from "./components/layout";

export type WebhookEndpointDisabledProps = {
  clientName: string;
  url: string;
  failingSince: string;
  lastError: string | null;
  portalUrl: string;
};

export const subject = (props: WebhookEndpointDisabledProps) =>
  `Webhook endpoint disabled for ${props.clientName}`;

/** Sample props: the email tests and `npm run screens` render these. */
export const previewProps: WebhookEndpointDisabledProps = {
  clientName: "My app",
  url: "https://app.example/webhooks",
  failingSince: "2026-11-17T10:00:00.000Z",
  lastError: "answered 500",
  portalUrl: "http://localhost:3000/developers",
};

export default function WebhookEndpointDisabled(props: WebhookEndpointDisabledProps) {
  const { clientName, url, failingSince, lastError, portalUrl } = props;
  return (
    <EmailLayout
      preview="A webhook endpoint was disabled"
      heading="A webhook endpoint was disabled"
    >
      <Text>
        Every delivery to <strong>{url}</strong> ({clientName}) has failed since {failingSince}, so
        we stopped sending to it. The last attempt: {lastError ?? "no answer"}.
      </Text>
      <Text>
        Events recorded meanwhile are kept for 3 days. Fix the receiver, then register it again on
        the developer portal: {portalUrl}
      </Text>
    </EmailLayout>
  );
}
