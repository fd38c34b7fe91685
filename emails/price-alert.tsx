/** Sent once when a price alert's target is reached: the item, its price, a link to it, and where the person's alerts are. Alerts never buy. */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type PriceAlertProps = {
  title: string;
  store: string;
  price: string;
  target: string;
  itemUrl: string;
  alertsUrl: string;
};

export const subject = (props: PriceAlertProps) =>
  `Price drop: ${props.title} is now $${props.price} CAD`;

export default function PriceAlert(props: PriceAlertProps) {
  const {
    title = "Wool coat",
    store = "Maple & Thread",
    price = "89.00",
    target = "90.00",
    itemUrl = "https://example.ca/item",
    alertsUrl = "http://localhost:3000/account/alerts",
  } = props;
  return (
    <EmailLayout
      preview={`${title} is now $${price} CAD, at or under your $${target}`}
      heading="Your price alert: the price dropped"
    >
      <Text>
        <strong>{title}</strong> from {store} is now <strong>${price} CAD</strong>, at or under the
        ${target} CAD you asked us to watch for.
      </Text>
      <Text>
        Nothing was bought: this alert only tells you. It has now ended; you will not get another
        email for it.
      </Text>
      <Button href={itemUrl} style={buttonStyle}>
        See the item
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>
        Or open: {itemUrl}. Your alerts: {alertsUrl}
      </Text>
    </EmailLayout>
  );
}
