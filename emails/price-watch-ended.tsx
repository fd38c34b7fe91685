/** Sent when a price watch ends without buying: expired, over the total, item sold, cancelled, or the person's settings stopped it. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";

export type PriceWatchEndedProps = {
  title: string;
  maxPrice: string;
  maxTotal: string;
  outcome: string;
};

const texts: Record<string, string> = {
  expired: "ended: its time ran out before the price fell to your price.",
  over_your_total:
    "ended: its time ran out while the price was right but the total with shipping and tax was over your maximum.",
  item_sold: "ended: the item sold to someone else before the price fell to your price.",
  cancelled: "is cancelled as asked.",
  limits_lowered: "ended: your spending limits no longer allow its maximum total.",
  purchases_paused: "ended: you paused assistant purchases.",
  assistant_disconnected:
    "ended: the assistant that set it is no longer connected to your account.",
  store_requires_checkout_link: "ended: the store no longer lets assistants buy for you.",
  not_available_in_market: "ended: assistant purchases do not deliver to your saved address.",
  address_not_on_file: "ended: your account has no saved shipping address.",
  no_saved_card: "ended: your account has no saved card.",
  card_not_on_this_account: "ended: your saved card could not be used.",
  payment_failed: "ended: your bank did not answer when it tried to buy; the hold was released.",
};

export const subject = (props: PriceWatchEndedProps) =>
  `Your price watch on ${props.title} ${props.outcome === "cancelled" ? "is cancelled" : "ended"}`;

export default function PriceWatchEnded(props: PriceWatchEndedProps) {
  const {
    title = "Wool coat",
    maxPrice = "80.00",
    maxTotal = "100.00",
    outcome = "expired",
  } = props;
  return (
    <EmailLayout
      preview={`${title}: price watch ${outcome === "cancelled" ? "cancelled" : "ended"}`}
      heading={outcome === "cancelled" ? "Your price watch is cancelled" : "Your price watch ended"}
    >
      <Text>
        Your price watch on <strong>{title}</strong> (at ${maxPrice} CAD or less, ${maxTotal} CAD at
        most in all) {texts[outcome] ?? "ended."} Nothing was bought and nothing was charged.
      </Text>
    </EmailLayout>
  );
}
