/** Sent when a price watch's purchase needs the person: the card was declined or the bank wants them; the item, the watch, and a checkout link to pay themselves. */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout, buttonStyle, OrOpen } from "./components/layout";
import {
  type EmailWatchedItem,
  type EmailWatchLimits,
  WatchedItem,
  WatchLimits,
} from "./components/watched-item";

export type PriceWatchNeedsYouProps = Localised &
  EmailWatchLimits & {
    item: EmailWatchedItem;
    /** The price the watch tried to buy at. */
    priceCents: number;
    reason: string;
    checkoutUrl: string;
    checkoutExpiresAt: string;
  };

export const previewProps: PriceWatchNeedsYouProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  item: {
    title: "Wool coat",
    size: "M",
    condition: "excellent",
    imageUrl: "http://localhost:3000/images/items/1/1.svg",
    storeName: "Maple & Thread",
    url: "https://maple-and-thread.example.ca/products/wool-coat",
    priceCents: 7_900,
  },
  priceCents: 7_900,
  maxPriceCents: 8_000,
  maxTotalCents: 10_000,
  expiresAt: "2026-12-04T21:00:00.000Z",
  reason: "card_declined",
  checkoutUrl: "http://localhost:3000/checkout/chk_x",
  checkoutExpiresAt: "2026-11-28T21:30:00.000Z",
};

/** Why the bank's answer needs the person, in words; any other reason reads as "the payment did not go through". */
const reasonKey = (reason: string) =>
  reason === "card_declined" || reason === "authentication_required"
    ? (`watches.why.${reason}` as const)
    : "watches.email.needsYou.otherReason";

export const subject = (props: PriceWatchNeedsYouProps) => {
  const intl = emailIntl(props);
  return intl.t("watches.email.needsYou.subject", {
    title: props.item.title,
    price: intl.money(props.priceCents),
  });
};

export default function PriceWatchNeedsYou(props: PriceWatchNeedsYouProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const price = intl.money(props.priceCents);
  return (
    <EmailLayout
      preview={t("watches.email.needsYou.preview", { title: props.item.title, price })}
      heading={t("watches.email.needsYou.heading")}
      intl={intl}
      showsTimes
    >
      <Text>{t("watches.email.needsYou.intro", { title: props.item.title, price })}</Text>
      <Text>{t(reasonKey(props.reason))}</Text>
      <WatchedItem item={props.item} intl={intl} />
      <WatchLimits limits={props} intl={intl} />
      <Text>
        {t("watches.email.needsYou.payYourself", {
          expires: intl.time(props.checkoutExpiresAt),
        })}
      </Text>
      <Button href={props.checkoutUrl} style={buttonStyle}>
        {t("watches.email.needsYou.button")}
      </Button>
      <OrOpen url={props.checkoutUrl} intl={intl} />
    </EmailLayout>
  );
}
