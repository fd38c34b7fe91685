"use client";
/**
 * One store's shipping options; choosing one saves it at once and the page re-renders its totals.
 * Radio buttons in a fieldset named for the store: Tab reaches the group, the arrow keys choose.
 */
import { useLocale, useTranslations } from "next-intl";
import { formatDate, formatMoney, type Locale } from "@/server/core/locale";
import { chooseShipping } from "./actions";

type Option = {
  key: string;
  label: string;
  cents: number;
  isFree: boolean;
  earliest: string;
  latest: string;
};

/** A delivery estimate's calendar day ("2026-12-02"), which has no zone. */
const day = (isoDay: string, locale: Locale) =>
  formatDate(new Date(`${isoDay}T12:00:00Z`), locale, "UTC");

export function ShippingChoice({
  checkoutId,
  store,
  storeName,
  options,
  selected,
}: {
  checkoutId: string;
  store: string;
  storeName: string;
  options: Option[];
  selected: string;
}) {
  const t = useTranslations("checkout.shippingChoice");
  const locale = useLocale() as Locale;
  return (
    <form action={chooseShipping} className="shipping-choice">
      <input type="hidden" name="id" value={checkoutId} />
      <input type="hidden" name="store" value={store} />
      <fieldset aria-label={`${t("legend")} · ${storeName}`}>
        <legend>{t("legend")}</legend>
        {options.map((option) => (
          <label key={option.key}>
            <input
              type="radio"
              name="option"
              value={option.key}
              defaultChecked={option.key === selected}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            />
            <span>
              {t("option", {
                label: option.label,
                price: option.isFree ? t("free") : formatMoney(option.cents, locale),
              })}{" "}
              <span className="muted">
                {t("arrives", {
                  earliest: day(option.earliest, locale),
                  latest: day(option.latest, locale),
                })}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
    </form>
  );
}
