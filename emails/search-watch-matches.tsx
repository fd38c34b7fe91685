/**
 * A search watch's notification (notify mode): the items that newly match the person's saved
 * search, each with its picture, price and why it matched (new listing, price change, back in
 * stock). One at once when the watch's last email is an hour old or more; otherwise the matches
 * wait and the next one names them all (the digest). Never buys. It links to the person's saved
 * searches, where they stop it themselves (the assistant that set it may be disconnected).
 */
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { Localised } from "./components/i18n";
import { emailIntl } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { type EmailWatchedItem, WatchedItem } from "./components/watched-item";

export type SearchWatchMatchesProps = Localised & {
  /** The saved search in words ("wool coat, size M, under $120.00"). */
  search: string;
  matches: (EmailWatchedItem & { reason: "new_listing" | "price_change" | "back_in_stock" })[];
  /** The person's saved searches (/account/search-watches), where they can stop this one themselves. */
  searchWatchesUrl: string;
};

export const previewProps: SearchWatchMatchesProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  search: "wool coat, size M",
  matches: [
    {
      title: "Wool coat",
      size: null,
      condition: "excellent",
      imageUrl: "http://localhost:3000/images/items/1/1.svg",
      storeName: "Maple & Thread",
      url: "https://maple-and-thread.example.ca/products/wool-coat",
      priceCents: 8_900,
      reason: "new_listing",
    },
  ],
  searchWatchesUrl: "http://localhost:3000/account/search-watches",
};

export const subject = (props: SearchWatchMatchesProps) =>
  emailIntl(props).t("searchWatches.email.matches.subject", {
    count: props.matches.length,
    title: props.matches[0]?.title ?? "",
  });

export default function SearchWatchMatches(props: SearchWatchMatchesProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const count = props.matches.length;
  return (
    <EmailLayout
      preview={t("searchWatches.email.matches.preview", {
        count,
        title: props.matches[0]?.title ?? "",
      })}
      heading={t("searchWatches.email.matches.heading")}
      intl={intl}
    >
      <Text>{t("searchWatches.email.matches.intro", { count, search: props.search })}</Text>
      {props.matches.map((match) => (
        <Section key={match.url}>
          <Text style={{ margin: "8px 0 0", fontSize: 13, color: "#6b655f" }}>
            {t(`searchWatches.email.matches.reason.${match.reason}`)}
          </Text>
          <WatchedItem item={match} intl={intl} />
        </Section>
      ))}
      <Text style={{ fontSize: 13, color: "#6b655f" }}>
        {t("searchWatches.email.matches.digest")}{" "}
        {t("searchWatches.email.matches.manage", { url: props.searchWatchesUrl })}
      </Text>
    </EmailLayout>
  );
}
