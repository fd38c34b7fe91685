/**
 * The item a price watch or a price alert is about, as the shopper's pages show it: picture,
 * title (a link to the store's page), size as listed, condition, store and price now. Works in
 * server and client components (next-intl's hooks); money in the page's locale.
 */
import { useLocale, useTranslations } from "next-intl";
import { formatMoney, type Locale } from "@/server/core/locale";
import { isConditionKey } from "@/server/core/messages";
import "./watched-item.css";

export type PageWatchedItem = {
  title: string;
  priceCents: number;
  url: string;
  condition: string | null;
  /** Absolute, or null when the item has no picture. */
  imageUrl: string | null;
  storeName: string;
};

export function WatchedItemCard({
  item,
  size = null,
  titleAs: Title = "p",
}: {
  item: PageWatchedItem;
  /** The watch's size as the store lists it. */
  size?: string | null;
  /** "h2" when the item's title is the heading of its list entry; "h3" under an entry's own heading. */
  titleAs?: "p" | "h2" | "h3";
}) {
  const summary = useTranslations("common.summary");
  const t = useTranslations("watches.item");
  const locale = useLocale() as Locale;
  const details = [
    size ? summary("size", { size }) : null,
    isConditionKey(item.condition) ? summary(`condition.${item.condition}`) : null,
  ].filter(Boolean);
  return (
    <div className="watched-item">
      {item.imageUrl ? (
        // A plain img: store pictures come from any host, and are sized here.
        <img
          src={item.imageUrl}
          alt={summary("picture", { title: item.title })}
          width={64}
          height={80}
        />
      ) : (
        <span className="watched-item-blank" aria-hidden />
      )}
      <div className="watched-item-text">
        <Title className="watched-item-title">
          <a href={item.url}>{item.title}</a>
        </Title>
        {details.length ? <p className="muted small">{details.join(" · ")}</p> : null}
        <p className="muted small">{t("soldBy", { store: item.storeName })}</p>
      </div>
      <p className="watched-item-price">
        <span className="muted small">{t("priceNow")}</span>
        <span className="amount" data-testid="item-price">
          {formatMoney(item.priceCents, locale)}
        </span>
      </p>
    </div>
  );
}
