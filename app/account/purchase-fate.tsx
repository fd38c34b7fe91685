"use client";
/**
 * What became of the purchase a watch or a watch group made, once it did not go through: a watch
 * that bought stays fulfilled (one purchase a watch), but the person may have cancelled the
 * purchase from its email, the item may have sold elsewhere before the charge, or it was refunded.
 * Nothing while it is held, paid or waiting for the bank: the order number says it then.
 */
import { useTranslations } from "next-intl";
import { purchaseReasonKey } from "@/server/core/messages";
import type { TMyWatch } from "@/server/dashboard";

export function PurchaseFate({ purchase }: { purchase: TMyWatch["purchase"] }) {
  const t = useTranslations("watches.account");
  const tPurchases = useTranslations("purchases");
  if (!purchase || ["held", "paid", "processing"].includes(purchase.status)) return null;
  return (
    <>
      <dt>{t("purchase")}</dt>
      <dd data-testid="watch-purchase">
        {t("purchaseValue", {
          status: tPurchases(`status.${purchase.status}`),
          reason: tPurchases(`reason.${purchaseReasonKey(purchase.reason)}`),
        })}
      </dd>
    </>
  );
}
