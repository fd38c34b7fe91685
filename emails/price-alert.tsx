/** Sent once when a price alert's target is reached: the item with its picture, its price and the target, a link to it, and where the person's alerts are. Alerts never buy. */
import { Button } from "@react-email/button";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout, buttonStyle, OrOpen } from "./components/layout";
import { type EmailWatchedItem, LimitLine, WatchedItem } from "./components/watched-item";

export type PriceAlertProps = Localised & {
  item: EmailWatchedItem;
  targetCents: number;
  alertsUrl: string;
};

export const previewProps: PriceAlertProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  item: {
    title: "Wool coat",
    size: null,
    condition: "excellent",
    imageUrl: "http://localhost:3000/images/items/1/1.svg",
    storeName: "Maple & Thread",
    url: "https://maple-and-thread.example.ca/products/wool-coat",
    priceCents: 8_900,
  },
  targetCents: 9_000,
  alertsUrl: "http://localhost:3000/account/alerts",
};

export const subject = (props: PriceAlertProps) => {
  const intl = emailIntl(props);
  return intl.t("watches.email.alert.subject", {
    title: props.item.title,
    price: intl.money(props.item.priceCents),
  });
};

export default function PriceAlert(props: PriceAlertProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const { item } = props;
  const price = intl.money(item.priceCents);
  const target = intl.money(props.targetCents);
  return (
    <EmailLayout
      preview={t("watches.email.alert.preview", { title: item.title, price, target })}
      heading={t("watches.email.alert.heading")}
      intl={intl}
    >
      <Text>
        {t("watches.email.alert.intro", {
          title: item.title,
          store: item.storeName,
          price,
          target,
        })}
      </Text>
      <WatchedItem item={item} intl={intl} />
      <Section style={{ margin: "0 0 12px" }}>
        <LimitLine label={t("watches.limits.yourPrice")} value={target} />
      </Section>
      <Text>{t("watches.email.alert.nothing")}</Text>
      <Button href={item.url} style={buttonStyle}>
        {t("watches.email.alert.button")}
      </Button>
      <OrOpen url={item.url} intl={intl} />
      <Text style={{ fontSize: 13, color: "#6b655f", overflowWrap: "anywhere" }}>
        {t("watches.email.alert.alerts", { url: props.alertsUrl })}
      </Text>
    </EmailLayout>
  );
}
