/**
 * Sent when a price watch buys: what it bought (the purchase's OrderSummary: items with pictures,
 * shipping, tax, total, ship-to), who set the watch, when the card is charged, until when the
 * purchase can be cancelled and how long that leaves, and the purchase's cancel link.
 */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import type { OrderSummary } from "../server/core/order-summary";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout, buttonStyle, OrOpen } from "./components/layout";
import { type EmailPriceChart, PriceChart } from "./components/price-chart";
import { WhatWasBought } from "./components/what-was-bought";

export type PriceWatchBoughtProps = Localised & {
  assistant: string;
  title: string;
  priceCents: number;
  orderNumber: string;
  grandTotalCents: number;
  summary: OrderSummary;
  chargesAt: string;
  cancelUntil: string;
  cancelUrl: string;
  /** The item's price chart with the watch's max price (ADR 0119). */
  chart?: EmailPriceChart | null;
};

const previewStore: OrderSummary["stores"][number] = {
  storeName: "Maple & Thread",
  storeUrl: "https://maple-and-thread.example.ca",
  orderNumber: "SO-7K3M9QX2-1",
  items: [
    {
      title: "Wool coat",
      size: "M",
      condition: "excellent",
      quantity: 1,
      imageUrl: "http://localhost:3000/images/items/1/1.svg",
      url: "https://maple-and-thread.example.ca/products/wool-coat",
      lineCents: 7_900,
    },
  ],
  shipping: { label: "Standard", cents: 500, earliest: "2026-12-01", latest: "2026-12-04" },
  taxLines: [{ name: "HST", rate: "13%", cents: 1_092 }],
  totals: {
    itemsCents: 7_900,
    discountCents: 0,
    shippingCents: 500,
    taxCents: 1_092,
    totalCents: 9_492,
  },
};

// The preview's purchase was just made: it is charged a day later, with the time left to cancel counted from now.
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

export const previewProps: PriceWatchBoughtProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  assistant: "Deal Finder",
  title: "Wool coat",
  priceCents: 7_900,
  orderNumber: "SO-7K3M9QX2",
  grandTotalCents: 9_492,
  summary: {
    orderNumber: "SO-7K3M9QX2",
    stores: [previewStore],
    shipTo: ["Wren Lee", "100 Queen St W", "Toronto ON M5H 2N2"],
    totals: previewStore.totals,
  },
  chargesAt: hoursFromNow(24),
  cancelUntil: hoursFromNow(23.9),
  cancelUrl: "http://localhost:3000/purchases/pur_x/cancel?token=example",
};

export const subject = (props: PriceWatchBoughtProps) => {
  const intl = emailIntl(props);
  return intl.t("watches.email.bought.subject", {
    title: props.title,
    price: intl.money(props.priceCents),
    order: props.orderNumber,
  });
};

export default function PriceWatchBought(props: PriceWatchBoughtProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const price = intl.money(props.priceCents);
  const cancelUntil = intl.time(props.cancelUntil);
  // Rendered when sent: the time left is counted from then.
  const timeLeft = intl.timeLeft(new Date(), props.cancelUntil);
  return (
    <EmailLayout
      preview={t("watches.email.bought.preview", {
        order: props.orderNumber,
        title: props.title,
        price,
      })}
      heading={t("watches.email.bought.heading")}
      intl={intl}
      showsTimes
    >
      <Text>
        {t("watches.email.bought.intro", {
          title: props.title,
          price,
          assistant: props.assistant,
          order: props.orderNumber,
          total: intl.money(props.grandTotalCents),
        })}
      </Text>
      <WhatWasBought summary={props.summary} intl={intl} />
      <PriceChart chart={props.chart} />
      <Text>{t("watches.email.bought.charge", { chargesAt: intl.time(props.chargesAt) })}</Text>
      <Text>
        {timeLeft
          ? t("watches.email.bought.cancelUntil", { cancelUntil, timeLeft })
          : t("watches.email.bought.cancelUntilPassed", { cancelUntil })}
      </Text>
      <Button href={props.cancelUrl} style={buttonStyle}>
        {t("watches.email.bought.button")}
      </Button>
      <OrOpen url={props.cancelUrl} intl={intl} />
    </EmailLayout>
  );
}
