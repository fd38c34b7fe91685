/** Sent when an any-of price watch ends without buying (expired, cancelled, every item sold, or the person's settings stopped it): its items and why. */
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { watchOutcomeKey } from "../server/core/messages";
import { type EmailWatchedItem, WatchedItem } from "./components/watched-item";

export type PriceWatchGroupEndedProps = Localised & {
  alternatives: EmailWatchedItem[];
  outcome: string;
};

export const previewProps: PriceWatchGroupEndedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  alternatives: [
    {
      title: "Wool coat",
      size: "M",
      condition: "excellent",
      imageUrl: "http://localhost:3000/images/items/1/1.svg",
      storeName: "Maple & Thread",
      url: "https://maple-and-thread.example.ca/products/wool-coat",
      priceCents: 11_900,
    },
  ],
  outcome: "expired",
};

export const subject = (props: PriceWatchGroupEndedProps) =>
  emailIntl(props).t(
    props.outcome === "cancelled"
      ? "watchGroups.email.ended.subjectCancelled"
      : "watchGroups.email.ended.subjectEnded",
    { count: props.alternatives.length },
  );

export default function PriceWatchGroupEnded(props: PriceWatchGroupEndedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const count = props.alternatives.length;
  const isCancelled = props.outcome === "cancelled";
  return (
    <EmailLayout
      preview={t("watchGroups.email.ended.preview", { count })}
      heading={t(
        isCancelled
          ? "watchGroups.email.ended.headingCancelled"
          : "watchGroups.email.ended.headingEnded",
      )}
      intl={intl}
    >
      <Text>
        {t(
          isCancelled
            ? "watchGroups.email.ended.introCancelled"
            : "watchGroups.email.ended.introEnded",
          { count },
        )}{" "}
        {isCancelled ? null : t(`watches.why.${watchOutcomeKey(props.outcome)}`)}
      </Text>
      <Text>{t("watchGroups.email.ended.nothing")}</Text>
      {props.alternatives.map((alternative, index) => (
        <WatchedItem key={index} item={alternative} intl={intl} />
      ))}
    </EmailLayout>
  );
}
