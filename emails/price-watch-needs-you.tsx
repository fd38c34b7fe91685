/** Sent when a price watch's purchase needs the person: the card was declined or the bank wants them; a checkout link to pay themselves. */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type PriceWatchNeedsYouProps = {
  title: string;
  price: string;
  reason: string;
  checkoutUrl: string;
  checkoutExpiresAt: string;
};

export const subject = (props: PriceWatchNeedsYouProps) =>
  `Your price watch needs you: ${props.title} is at $${props.price}`;

const reasons: Record<string, string> = {
  card_declined: "your bank declined your saved card",
  authentication_required: "your bank wants you to confirm the payment yourself",
};

export default function PriceWatchNeedsYou(props: PriceWatchNeedsYouProps) {
  const {
    title = "Wool coat",
    price = "79.00",
    reason = "card_declined",
    checkoutUrl = "http://localhost:3000/checkout/chk_x",
    checkoutExpiresAt = "Nov 22, 2026, 9:30 p.m. UTC",
  } = props;
  return (
    <EmailLayout
      preview={`${title} is at $${price}: pay for it yourself`}
      heading="Your price watch needs you"
    >
      <Text>
        The price of <strong>{title}</strong> fell to ${price} CAD, but we could not buy it for you:{" "}
        {reasons[reason] ?? "the payment did not go through"}. Nothing was charged. You can pay for
        it yourself until {checkoutExpiresAt}:
      </Text>
      <Button href={checkoutUrl} style={buttonStyle}>
        Review and pay
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {checkoutUrl}</Text>
    </EmailLayout>
  );
}
