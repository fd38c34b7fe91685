import { getTranslations } from "next-intl/server";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { shopperPageCaller } from "@/app/_trpc/server";
import { provinceCodes } from "@/server/core/provinces";
import { removeAddressAction, saveAddressAction } from "../actions";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("account.address"))("metaTitle"),
});

/** The saved shipping address (Canadian addresses only). */
export default async function AddressPage() {
  const address = await (
    await shopperPageCaller("/account/address")
  ).account
    .getShippingAddress()
    .catch(() => undefined);
  const t = await getTranslations("account.address");
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("lede")}</p>
      <section className="panel" aria-labelledby="address-title">
        <h2 id="address-title">{address ? t("savedTitle") : t("addTitle")}</h2>
        <p className="hint">{t("hint")}</p>
        <ActionForm action={saveAddressAction}>
          <FormMessage />
          <Field
            name="name"
            label={t("name")}
            defaultValue={address?.name}
            autoComplete="shipping name"
          />
          <Field
            name="line1"
            label={t("line1")}
            defaultValue={address?.line1}
            autoComplete="shipping address-line1"
          />
          <Field
            name="line2"
            label={t("line2")}
            defaultValue={address?.line2 ?? ""}
            autoComplete="shipping address-line2"
          />
          <div className="row">
            <Field
              name="city"
              label={t("city")}
              defaultValue={address?.city}
              autoComplete="shipping address-level2"
            />
            <Field name="province" label={t("province")}>
              <select
                id="field-province"
                name="province"
                className="select"
                defaultValue={address?.province ?? ""}
                autoComplete="shipping address-level1"
              >
                <option value="" disabled>
                  {t("choose")}
                </option>
                {provinceCodes.map((code) => (
                  <option key={code} value={code}>
                    {t(`provinces.${code}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <div className="row">
            <Field
              name="postal_code"
              label={t("postalCode")}
              defaultValue={address?.postal_code}
              autoComplete="shipping postal-code"
              placeholder="K1A 0B1"
            />
            <Field
              name="phone"
              label={t("phone")}
              type="tel"
              defaultValue={address?.phone ?? ""}
              autoComplete="shipping tel"
              hint={t("phoneHint")}
            />
          </div>
          <div className="button-row">
            <SubmitButton>{t("save")}</SubmitButton>
          </div>
        </ActionForm>
        {address ? (
          <ActionForm action={removeAddressAction} className="form" resetOnSuccess>
            <hr className="divider" />
            <FormMessage />
            <div>
              <SubmitButton className="button danger">{t("remove")}</SubmitButton>
            </div>
          </ActionForm>
        ) : null}
      </section>
    </>
  );
}
