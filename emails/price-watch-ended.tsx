/** Sent when a price watch ends without buying: expired, over the total, item sold, cancelled, or the person's settings stopped it; the item and the watch it was. */
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { watchOutcomeKey } from "../server/core/messages";
import {
  type EmailWatchedItem,
  type EmailWatchLimits,
  WatchedItem,
  WatchLimits,
} from "./components/watched-item";

export type PriceWatchEndedProps = Localised &
  EmailWatchLimits & {
    item: EmailWatchedItem;
    outcome: string;
  };

export const previewProps: PriceWatchEndedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  item: {
    title: "Wool coat",
    size: "M",
    condition: "excellent",
    imageUrl: "http://localhost:3000/images/items/1/1.svg",
    storeName: "Maple & Thread",
    url: "https://maple-and-thread.example.ca/products/wool-coat",
    priceCents: 11_900,
  },
  maxPriceCents: 8_000,
  maxTotalCents: 10_000,
  expiresAt: "2026-12-04T21:00:00.000Z",
  outcome: "expired",
};

export const subject = (props: PriceWatchEndedProps) =>
  emailIntl(props).t(
    props.outcome === "cancelled"
      ? "watches.email.ended.subjectCancelled"
      : "watches.email.ended.subjectEnded",
    { title: props.item.title },
  );

export default function PriceWatchEnded(props: PriceWatchEndedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const title = props.item.title;
  const isCancelled = props.outcome === "cancelled";
  return (
    <EmailLayout
      preview={t(
        isCancelled ? "watches.email.ended.previewCancelled" : "watches.email.ended.previewEnded",
        { title },
      )}
      heading={t(
        isCancelled ? "watches.email.ended.headingCancelled" : "watches.email.ended.headingEnded",
      )}
      intl={intl}
      showsTimes
    >
      <Text>
        {t(isCancelled ? "watches.email.ended.introCancelled" : "watches.email.ended.introEnded", {
          title,
        })}{" "}
        {isCancelled ? null : t(`watches.why.${watchOutcomeKey(props.outcome)}`)}
      </Text>
      <Text>{t("watches.email.ended.nothing")}</Text>
      <WatchedItem item={props.item} intl={intl} />
      <WatchLimits limits={props} intl={intl} />
    </EmailLayout>
  );
}
