/**
 * The owner named by an authorize key, the inverse of processorKey (server/payments/provider.ts):
 * `chk_x:2:authorize` is attempt 2 of checkout chk_x, `pur_x:authorize` purchase pur_x. Stripe keeps
 * the key in the PaymentIntent's metadata (`authorize_key`), so an event finds its payment even
 * when the authorize's answer never reached us.
 */
import type { PaymentOwner } from "../../payments";

export const ownerOfAuthorizeKey = (key: string | undefined): PaymentOwner | null => {
  const checkout = /^(chk_[A-Za-z0-9_-]+):(\d{1,6}):authorize$/.exec(key ?? "");
  if (checkout) return { kind: "checkout", id: checkout[1], attempt: Number(checkout[2]) };
  const purchase = /^(pur_[A-Za-z0-9_-]+):authorize$/.exec(key ?? "");
  return purchase ? { kind: "purchase", id: purchase[1] } : null;
};
