/** Sent when an assistant sets a price watch for the person: the item, what it will buy within, until when, and the cancel link. */
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

export type PriceWatchSetProps = Localised &
  EmailWatchLimits & {
    assistant: string;
    item: EmailWatchedItem;
    cancelUrl: string;
  };

export const previewProps: PriceWatchSetProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  assistant: "Deal Finder",
  item: {
    title: "Wool coat",
    size: "M",
    condition: "excellent",
    imageUrl: "http://localhost:3000/images/items/1/1.svg",
    storeName: "Maple & Thread",
    url: "https://maple-and-thread.example.ca/products/wool-coat",
    priceCents: 12_900,
  },
  maxPriceCents: 8_000,
  maxTotalCents: 10_000,
  expiresAt: "2026-12-04T21:00:00.000Z",
  cancelUrl: "http://localhost:3000/price-watches/1/cancel?token=example",
};

export const subject = (props: PriceWatchSetProps) => {
  const intl = emailIntl(props);
  return intl.t("watches.email.set.subject", {
    assistant: props.assistant,
    title: props.item.title,
    price: intl.money(props.maxPriceCents),
  });
};

export default function PriceWatchSet(props: PriceWatchSetProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const price = intl.money(props.maxPriceCents);
  const expires = intl.time(props.expiresAt);
  return (
    <EmailLayout
      preview={t("watches.email.set.preview", { title: props.item.title, price, expires })}
      heading={t("watches.email.set.heading")}
      intl={intl}
      showsTimes
    >
      <Text>{t("watches.email.set.intro", { assistant: props.assistant })}</Text>
      <WatchedItem item={props.item} intl={intl} />
      <WatchLimits limits={props} intl={intl} />
      <Text>{t("watches.email.set.how", { price, total: intl.money(props.maxTotalCents) })}</Text>
      <Text>{t("watches.email.set.anyTime", { expires })}</Text>
      <Button href={props.cancelUrl} style={buttonStyle}>
        {t("watches.email.set.button")}
      </Button>
      <OrOpen url={props.cancelUrl} intl={intl} />
    </EmailLayout>
  );
}
