/** Sent when an assistant sets an any-of price watch (POST /price-watch-groups): its items, the one total, until when, and the cancel link (it cancels every item). */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout, buttonStyle, OrOpen } from "./components/layout";
import { type EmailWatchedItem, LimitLine, WatchedItem } from "./components/watched-item";

/** One alternative: the item as it is now, and its own price (null: any price within the total). */
export type EmailAlternative = EmailWatchedItem & { maxPriceCents: number | null };

export type PriceWatchGroupSetProps = Localised & {
  assistant: string;
  alternatives: EmailAlternative[];
  maxTotalCents: number;
  expiresAt: string;
  cancelUrl: string;
};

const sampleItem = {
  condition: "excellent",
  imageUrl: "http://localhost:3000/images/items/1/1.svg",
  storeName: "Maple & Thread",
  url: "https://maple-and-thread.example.ca/products/wool-coat",
};

export const previewProps: PriceWatchGroupSetProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  assistant: "Deal Finder",
  alternatives: [
    { ...sampleItem, title: "Wool coat", size: "M", priceCents: 12_900, maxPriceCents: 8_000 },
    { ...sampleItem, title: "Camel overcoat", size: "M", priceCents: 13_900, maxPriceCents: null },
  ],
  maxTotalCents: 10_000,
  expiresAt: "2026-12-04T21:00:00.000Z",
  cancelUrl: "http://localhost:3000/price-watches/1/cancel?token=example",
};

export const subject = (props: PriceWatchGroupSetProps) =>
  emailIntl(props).t("watchGroups.email.set.subject", {
    assistant: props.assistant,
    count: props.alternatives.length,
  });

export default function PriceWatchGroupSet(props: PriceWatchGroupSetProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const count = props.alternatives.length;
  const total = intl.money(props.maxTotalCents);
  const expires = intl.time(props.expiresAt);
  return (
    <EmailLayout
      preview={t("watchGroups.email.set.preview", { count, total, expires })}
      heading={t("watchGroups.email.set.heading")}
      intl={intl}
      showsTimes
    >
      <Text>{t("watchGroups.email.set.intro", { assistant: props.assistant, count, total })}</Text>
      {props.alternatives.map((alternative, index) => (
        <div key={index}>
          <WatchedItem item={alternative} intl={intl} />
          <LimitLine
            label={t("watchGroups.email.set.alternative", { number: index + 1 })}
            value={
              alternative.maxPriceCents === null
                ? t("watchGroups.email.set.anyPrice")
                : t("watches.limits.buyAtValue", { price: intl.money(alternative.maxPriceCents) })
            }
          />
        </div>
      ))}
      <LimitLine
        label={t("watches.limits.totalAtMost")}
        value={t("watches.limits.totalAtMostValue", { total })}
      />
      <LimitLine label={t("watches.limits.until")} value={expires} />
      <Text>{t("watchGroups.email.set.charge")}</Text>
      <Text>{t("watchGroups.email.set.anyTime", { expires, count })}</Text>
      <Button href={props.cancelUrl} style={buttonStyle}>
        {t("watchGroups.email.set.button")}
      </Button>
      <OrOpen url={props.cancelUrl} intl={intl} />
    </EmailLayout>
  );
}
