/**
 * Not a template: the item a price watch or a price alert is about, as their five emails show it
 * (picture, title, size as listed, condition, store, price now), and the watch's limits. Amounts are
 * cents and times ISO strings in the props, formatted here in the reader's language and zone.
 */
import { Column } from "@react-email/column";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { isConditionKey } from "../../server/core/messages";
import type { EmailIntl } from "./i18n";
import { type EmailPriceChart, PriceChart } from "./price-chart";

/** The item as the writer read it when the email was written; the picture's URL is absolute. */
export type EmailWatchedItem = {
  title: string;
  /** The watch's size as the store lists it (null: one size, or an alert). */
  size: string | null;
  condition: string | null;
  imageUrl: string | null;
  storeName: string;
  url: string;
  priceCents: number;
  /** The item's price chart with the watch's or alert's target line (ADR 0119). */
  chart?: EmailPriceChart | null;
};

/** A watch's limits: the price it buys at, the total it may spend, when it ends. */
export type EmailWatchLimits = { maxPriceCents: number; maxTotalCents: number; expiresAt: string };

const muted = { color: "#6b655f", fontSize: 13, margin: 0 };
const line = { margin: "2px 0", fontSize: 14 };

/** "Size M · Good condition", from the common summary's words. */
export const itemDetails = (item: Pick<EmailWatchedItem, "size" | "condition">, intl: EmailIntl) =>
  [
    item.size ? intl.t("common.summary.size", { size: item.size }) : null,
    isConditionKey(item.condition) ? intl.t(`common.summary.condition.${item.condition}`) : null,
  ]
    .filter(Boolean)
    .join(" · ");

export const WatchedItem = ({ item, intl }: { item: EmailWatchedItem; intl: EmailIntl }) => {
  const details = itemDetails(item, intl);
  return (
    <Section
      style={{
        border: "1px solid #e6e1da",
        borderRadius: 8,
        padding: "12px 16px",
        margin: "12px 0",
      }}
    >
      <Row>
        <Column style={{ width: 76, verticalAlign: "top" }}>
          {item.imageUrl ? (
            <Img
              src={item.imageUrl}
              width="64"
              height="80"
              alt={intl.t("common.summary.picture", { title: item.title })}
              style={{ borderRadius: 4, objectFit: "cover" }}
            />
          ) : null}
        </Column>
        <Column style={{ verticalAlign: "top" }}>
          <Text style={{ ...line, fontWeight: 600 }}>
            <Link href={item.url} style={{ color: "#1d1b19" }}>
              {item.title}
            </Link>
          </Text>
          {details ? <Text style={muted}>{details}</Text> : null}
          <Text style={muted}>{intl.t("watches.item.soldBy", { store: item.storeName })}</Text>
          <Text style={{ ...line, marginTop: 6, fontWeight: 600 }}>
            {intl.t("watches.item.priceNowLine", { price: intl.money(item.priceCents) })}
          </Text>
        </Column>
      </Row>
      <PriceChart chart={item.chart} />
    </Section>
  );
};

export const LimitLine = ({ label, value }: { label: string; value: string }) => (
  <Row>
    <Column style={{ ...line, color: "#6b655f", width: "40%", verticalAlign: "top" }}>
      {label}
    </Column>
    <Column style={{ ...line, verticalAlign: "top" }}>{value}</Column>
  </Row>
);

/** Buys at, total at most and until when, one line each (the zone is named once by the layout). */
export const WatchLimits = ({ limits, intl }: { limits: EmailWatchLimits; intl: EmailIntl }) => (
  <Section style={{ margin: "0 0 12px" }}>
    <LimitLine
      label={intl.t("watches.limits.buyAt")}
      value={intl.t("watches.limits.buyAtValue", { price: intl.money(limits.maxPriceCents) })}
    />
    <LimitLine
      label={intl.t("watches.limits.totalAtMost")}
      value={intl.t("watches.limits.totalAtMostValue", { total: intl.money(limits.maxTotalCents) })}
    />
    <LimitLine label={intl.t("watches.limits.until")} value={intl.time(limits.expiresAt)} />
  </Section>
);
