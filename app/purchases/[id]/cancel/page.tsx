import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { cancelPurchaseAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Cancel a purchase · Shopping API" };

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-CA", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }) + " UTC";

const closedReasons: Record<string, string> = {
  cancelled_by_person: "You cancelled it. Nothing was charged.",
  item_sold: "The item sold elsewhere before the charge. Nothing was charged.",
  notice_undelivered:
    "We could not deliver its email to you in time, so we cancelled it. Nothing was charged.",
};

/**
 * Where the purchase copy email's cancel link lands. Opening it changes nothing (mail scanners open
 * links): it shows the purchase and a Cancel button, which posts the cancel.
 */
export default async function CancelPurchasePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const { id } = await params;
  const token = (await searchParams).token ?? "";
  const purchase = await (
    await pageCaller()
  ).purchasePage
    .inspectCancel({ id, token })
    .catch(() => undefined);
  if (!purchase) {
    return (
      <section className="auth-card">
        <h1>This link is not valid</h1>
        <p className="lede">Use the cancel link in the email we sent you about this purchase.</p>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="cancel-title">
      <h1 id="cancel-title">Order {purchase.order_number}</h1>
      <p className="lede">
        ${purchase.grand_total} CAD, bought for you by an assistant.
        {purchase.charges_at
          ? ` Your card is charged on ${when(purchase.charges_at)} unless you cancel.`
          : ""}
      </p>
      {purchase.can_cancel ? (
        <ActionForm action={cancelPurchaseAction}>
          <input type="hidden" name="id" value={purchase.purchase_id} />
          <input type="hidden" name="token" value={token} />
          <p>
            You can cancel until {when(purchase.cancel_until)}: the hold on your card is released
            and nothing is charged.
          </p>
          <FormMessage />
          <SubmitButton className="button primary block">Cancel this purchase</SubmitButton>
        </ActionForm>
      ) : purchase.status === "cancelled" ? (
        <div className="notice ok">
          <p>
            This purchase is cancelled.{" "}
            {closedReasons[purchase.reason ?? ""] ?? "Nothing was charged."}
          </p>
        </div>
      ) : purchase.status === "held" ? (
        <div className="notice">
          <p>
            It is too late to cancel: purchases can be cancelled until {when(purchase.cancel_until)}
            , and the charge goes ahead as announced. Contact the store about a return.
          </p>
        </div>
      ) : (
        <div className="notice">
          <p>
            {purchase.status === "paid"
              ? "It is too late to cancel: your card was charged. Contact the store about a return."
              : "This purchase holds nothing on your card: there is nothing to cancel."}
          </p>
        </div>
      )}
    </section>
  );
}
