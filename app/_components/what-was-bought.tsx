/**
 * What was bought, as every shopper page shows it (server/core/order-summary.ts), the twin of the
 * emails' emails/components/what-was-bought.tsx: per store the items with picture, size as listed
 * and condition, the shipping option with its delivery days, tax lines and the store's total; then
 * the overall total and the ship-to address. A discount line only when there is one. Works in
 * server and client components (next-intl's hooks); money and days in the page's locale.
 */
import { useLocale, useTranslations } from "next-intl";
import { formatDate, formatMoney, type Locale } from "@/server/core/locale";
import { isConditionKey, isTaxName } from "@/server/core/messages";
import type { OrderSummary, SummaryItem } from "@/server/core/order-summary";

const day = (isoDay: string, locale: Locale) =>
  formatDate(new Date(`${isoDay}T12:00:00Z`), locale, "UTC");

function Item({ item }: { item: SummaryItem }) {
  const t = useTranslations("common.summary");
  const locale = useLocale() as Locale;
  const details = [
    item.size ? t("size", { size: item.size }) : null,
    isConditionKey(item.condition) ? t(`condition.${item.condition}`) : null,
  ].filter(Boolean);
  return (
    <li className="bought-item">
      {item.imageUrl ? (
        <img src={item.imageUrl} alt={t("picture", { title: item.title })} width={64} height={80} />
      ) : (
        <span className="bought-item-blank" aria-hidden />
      )}
      <div>
        <p className="bought-item-title">
          {item.quantity > 1
            ? t("quantityTitle", { quantity: item.quantity, title: item.title })
            : item.title}
        </p>
        {details.length ? <p className="muted small">{details.join(" · ")}</p> : null}
      </div>
      <span className="amount">{formatMoney(item.lineCents, locale)}</span>
    </li>
  );
}

function Line({ label, cents, strong }: { label: string; cents: number; strong?: boolean }) {
  const locale = useLocale() as Locale;
  return (
    <div className={strong ? "money-line strong" : "money-line"}>
      <dt>{label}</dt>
      <dd className="amount">{formatMoney(cents, locale)}</dd>
    </div>
  );
}

export function WhatWasBought({
  summary,
  headingLevel = 2,
}: {
  summary: OrderSummary;
  headingLevel?: 2 | 3;
}) {
  const t = useTranslations("common.summary");
  const locale = useLocale() as Locale;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="bought">
      {summary.stores.map((store, index) => (
        <section key={index} className="bought-store" aria-label={store.storeName}>
          <Heading className="bought-store-name">{store.storeName}</Heading>
          {store.orderNumber ? (
            <p className="muted small">{t("order", { number: store.orderNumber })}</p>
          ) : null}
          <ul className="bought-items">
            {store.items.map((item, itemIndex) => (
              <Item key={itemIndex} item={item} />
            ))}
          </ul>
          <dl className="money-lines">
            {store.totals.discountCents > 0 ? (
              <Line label={t("discount")} cents={-store.totals.discountCents} />
            ) : null}
            <Line
              label={t("shipping", {
                label: store.shipping.label,
                earliest: day(store.shipping.earliest, locale),
                latest: day(store.shipping.latest, locale),
              })}
              cents={store.shipping.cents}
            />
            {store.taxLines.map((tax) => (
              <Line
                key={tax.name}
                label={t("taxLine", {
                  name: isTaxName(tax.name) ? t(`taxName.${tax.name}`) : tax.name,
                  rate: tax.rate,
                })}
                cents={tax.cents}
              />
            ))}
            {summary.stores.length > 1 ? (
              <Line label={t("storeTotal")} cents={store.totals.totalCents} strong />
            ) : null}
          </dl>
        </section>
      ))}
      <dl className="money-lines">
        <Line label={t("total")} cents={summary.totals.totalCents} strong />
      </dl>
      <div className="bought-ship-to">
        <p className="muted small">{t("shipTo")}</p>
        <address>
          {summary.shipTo.map((addressLine, index) => (
            <span key={index}>
              {addressLine}
              <br />
            </span>
          ))}
        </address>
      </div>
    </div>
  );
}
