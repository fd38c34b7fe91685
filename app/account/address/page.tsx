import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { shopperPageCaller } from "@/app/_trpc/server";
import { provinceCodes, provinces } from "@/server/core/provinces";
import { removeAddressAction, saveAddressAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shipping address · Shopping API" };

/** The saved shipping address (Canadian addresses only). */
export default async function AddressPage() {
  const address = await (
    await shopperPageCaller("/account/address")
  ).account
    .getShippingAddress()
    .catch(() => undefined);
  return (
    <>
      <h1 className="page-title">Shipping address</h1>
      <p className="muted">
        The stores ship within Canada. Apps you connect with the address permission can read it.
      </p>
      <section className="panel" aria-labelledby="address-title">
        <h2 id="address-title">{address ? "Your saved address" : "Add an address"}</h2>
        <p className="hint">Postal codes look like K1A 0B1 and must belong to the province.</p>
        <ActionForm action={saveAddressAction}>
          <FormMessage />
          <Field
            name="name"
            label="Full name"
            defaultValue={address?.name}
            autoComplete="shipping name"
          />
          <Field
            name="line1"
            label="Address"
            defaultValue={address?.line1}
            autoComplete="shipping address-line1"
          />
          <Field
            name="line2"
            label="Apartment, suite (optional)"
            defaultValue={address?.line2 ?? ""}
            autoComplete="shipping address-line2"
          />
          <div className="row">
            <Field
              name="city"
              label="City"
              defaultValue={address?.city}
              autoComplete="shipping address-level2"
            />
            <Field name="province" label="Province or territory">
              <select
                id="field-province"
                name="province"
                className="select"
                defaultValue={address?.province ?? ""}
                autoComplete="shipping address-level1"
              >
                <option value="" disabled>
                  Choose…
                </option>
                {provinceCodes.map((code) => (
                  <option key={code} value={code}>
                    {provinces[code].name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <div className="row">
            <Field
              name="postal_code"
              label="Postal code"
              defaultValue={address?.postal_code}
              autoComplete="shipping postal-code"
              placeholder="K1A 0B1"
            />
            <Field
              name="phone"
              label="Phone (optional)"
              type="tel"
              defaultValue={address?.phone ?? ""}
              autoComplete="shipping tel"
              hint="For the carrier, if a delivery needs it."
            />
          </div>
          <div className="button-row">
            <SubmitButton>Save address</SubmitButton>
          </div>
        </ActionForm>
        {address ? (
          <ActionForm action={removeAddressAction} className="form" resetOnSuccess>
            <hr className="divider" />
            <FormMessage />
            <div>
              <SubmitButton className="button danger">Remove this address</SubmitButton>
            </div>
          </ActionForm>
        ) : null}
      </section>
    </>
  );
}
