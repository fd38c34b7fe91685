/** Sent when an assistant sets a price watch for the person: what it will buy, within what, until when, and the cancel link. */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type PriceWatchSetProps = {
  assistant: string;
  title: string;
  maxPrice: string;
  maxTotal: string;
  expiresAt: string;
  cancelUrl: string;
};

export const subject = (props: PriceWatchSetProps) =>
  `${props.assistant} set a price watch for you: ${props.title} at $${props.maxPrice} or less`;

export default function PriceWatchSet(props: PriceWatchSetProps) {
  const {
    assistant = "Your assistant",
    title = "Wool coat",
    maxPrice = "80.00",
    maxTotal = "100.00",
    expiresAt = "Nov 29, 2026, 9:00 p.m. UTC",
    cancelUrl = "http://localhost:3000/price-watches/1/cancel?token=example",
  } = props;
  return (
    <EmailLayout
      preview={`${title}: bought for you at $${maxPrice} or less, until ${expiresAt}`}
      heading="A price watch was set for you"
    >
      <Text>
        {assistant} set a price watch on <strong>{title}</strong>. If its price falls to{" "}
        <strong>${maxPrice} CAD</strong> or less and the total with shipping and tax is at most{" "}
        <strong>${maxTotal} CAD</strong>, we buy it once for you with your saved card, ship it to
        your saved address, and email you. The card is charged 24 hours later unless you cancel that
        purchase.
      </Text>
      <Text>The watch lasts until {expiresAt}. You can cancel it at any time before it buys.</Text>
      <Button href={cancelUrl} style={buttonStyle}>
        Review or cancel the watch
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {cancelUrl}</Text>
    </EmailLayout>
  );
}
