"use client";
/** One store's shipping options; choosing one saves it at once and the page re-renders its totals. */
import { chooseShipping } from "./actions";

type Option = {
  key: string;
  label: string;
  amount: { amount: string };
  free: boolean;
  delivery_estimate: { earliest: string; latest: string };
};

export function ShippingChoice({
  checkoutId,
  store,
  options,
  selected,
  disabled,
}: {
  checkoutId: string;
  store: string;
  options: Option[];
  selected: string;
  disabled: boolean;
}) {
  return (
    <form action={chooseShipping} className="shipping-choice">
      <input type="hidden" name="id" value={checkoutId} />
      <input type="hidden" name="store" value={store} />
      <fieldset disabled={disabled}>
        <legend>Shipping</legend>
        {options.map((option) => (
          <label key={option.key}>
            <input
              type="radio"
              name="option"
              value={option.key}
              defaultChecked={option.key === selected}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            />
            {option.label} — {option.free ? "Free" : `$${option.amount.amount}`}{" "}
            <span className="muted">
              (arrives {option.delivery_estimate.earliest} to {option.delivery_estimate.latest})
            </span>
          </label>
        ))}
      </fieldset>
    </form>
  );
}
