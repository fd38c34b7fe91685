/**
 * The open checkout's review: the ship-to address, each store's items (picture, size as listed,
 * condition), its shipping choice, tax lines and total, then the checkout's totals. A discount line
 * only when there is a discount. Money in the page's locale (formatMoney).
 */
import { getLocale, getTranslations } from "next-intl/server";
import { formatMoney, type Locale } from "@/server/core/locale";
import { isConditionKey, isTaxName } from "@/server/core/messages";
import type { CheckoutPageView } from "@/server/checkout";
import type { StoreSummary } from "@/server/core/order-summary";
import { ShippingChoice } from "./shipping-choice";

type Choice = CheckoutPageView["shippingChoices"][number];

function MoneyLine({
  label,
  amount,
  className,
}: {
  label: string;
  amount: string;
  className?: string;
}) {
  return (
    <>
      <dt className={className}>{label}</dt>
      <dd className={className}>{amount}</dd>
    </>
  );
}

async function StoreCard(props: {
  checkoutId: string;
  store: StoreSummary;
  choice: Choice;
  index: number;
}) {
  const { store, choice } = props;
  const t = await getTranslations("checkout");
  const common = await getTranslations("common.summary");
  const locale = (await getLocale()) as Locale;
  const money = (cents: number) => formatMoney(cents, locale);
  const headingId = `store-${props.index}`;
  return (
    <section className="card store" aria-labelledby={headingId}>
      <h2 id={headingId}>{store.storeName}</h2>
      <ul className="items">
        {store.items.map((item, index) => {
          const details = [
            item.size ? common("size", { size: item.size }) : null,
            isConditionKey(item.condition) ? common(`condition.${item.condition}`) : null,
          ].filter(Boolean);
          return (
            <li key={index}>
              {item.imageUrl ? (
                <img
                  src={item.imageUrl}
                  alt={common("picture", { title: item.title })}
                  width={64}
                  height={80}
                />
              ) : (
                <span className="no-image" aria-hidden />
              )}
              <span className="title">
                {item.quantity > 1
                  ? common("quantityTitle", { quantity: item.quantity, title: item.title })
                  : item.title}
                {details.length ? (
                  <span className="muted small details">{details.join(" · ")}</span>
                ) : null}
              </span>
              <span className="amount">{money(item.lineCents)}</span>
            </li>
          );
        })}
      </ul>
      <ShippingChoice
        checkoutId={props.checkoutId}
        store={choice.slug}
        storeName={store.storeName}
        options={choice.options}
        selected={choice.selected}
      />
      {choice.freeShippingRemainingCents !== null ? (
        <p className="muted">
          {t("freeShippingHint", {
            amount: money(choice.freeShippingRemainingCents),
            store: store.storeName,
          })}
        </p>
      ) : null}
      <dl className="lines">
        <MoneyLine label={t("items")} amount={money(store.totals.itemsCents)} />
        {store.totals.discountCents > 0 ? (
          <MoneyLine label={t("discount")} amount={money(-store.totals.discountCents)} />
        ) : null}
        <MoneyLine label={t("shipping")} amount={money(store.totals.shippingCents)} />
        {store.taxLines.map((tax) => (
          <MoneyLine
            key={tax.name}
            label={common("taxLine", {
              name: isTaxName(tax.name) ? common(`taxName.${tax.name}`) : tax.name,
              rate: tax.rate,
            })}
            amount={money(tax.cents)}
          />
        ))}
        <MoneyLine label={t("storeTotal")} amount={money(store.totals.totalCents)} />
      </dl>
    </section>
  );
}

export async function OpenCheckout({ view }: { view: CheckoutPageView }) {
  const t = await getTranslations("checkout");
  const locale = (await getLocale()) as Locale;
  const money = (cents: number) => formatMoney(cents, locale);
  const totals = view.totalsCents;
  return (
    <>
      <section className="card" aria-labelledby="ship-to-heading">
        <h2 id="ship-to-heading">{t("shipTo")}</h2>
        <address className="ship-to">{view.shipTo.join(", ")}</address>
        <p className="muted">{t("confirmationTo", { email: view.email })}</p>
      </section>
      {view.summary.stores.map((store, index) => (
        <StoreCard
          key={index}
          index={index}
          checkoutId={view.id}
          store={store}
          choice={view.shippingChoices[index]!}
        />
      ))}
      <section className="card totals" aria-label={t("totals")}>
        <dl className="lines">
          <MoneyLine label={t("subtotal")} amount={money(totals.items)} />
          {totals.discount > 0 ? (
            <MoneyLine label={t("discount")} amount={money(-totals.discount)} />
          ) : null}
          <MoneyLine label={t("shipping")} amount={money(totals.shipping)} />
          <MoneyLine label={t("tax")} amount={money(totals.tax)} />
          <dt className="grand">{t("total")}</dt>
          <dd className="grand" data-testid="grand-total">
            {money(totals.total)}
          </dd>
        </dl>
      </section>
    </>
  );
}
