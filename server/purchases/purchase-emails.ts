/**
 * The purchase's emails, written into the outbox inside the transaction of the move that causes
 * them, each with a dedupe key so a retried step writes it once. Their props carry what was bought
 * (the purchase's OrderSummary), the person's locale and zone, times as ISO strings and amounts as
 * cents: the template formats them when it is sent (emails/components/i18n.ts). The copy carries the cancel link:
 * a signed, single-purpose token for this purchase (server/platform/mail/links.ts). It stays verifiable a
 * week past cancel_until so that a late click gets "too late, and why" rather than "bad link".
 */
import type { Locale } from "../core/locale";
import type { OrderSummary } from "../core/order-summary";
import { env } from "../platform/env";
import type { Tx } from "../platform/db";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { enqueueEmail } from "../platform/mail/outbox";
import type { Sql } from "../platform/sql";
import { type ReadingPreferences, readReadingPreferences } from "../accounts";
import { findClientContact } from "../auth";
import { absolute } from "../catalogue";
import type { PurchaseCopyProps } from "../../emails/purchase-copy";
import type { PurchaseClosedProps, PurchaseOutcome } from "../../emails/purchase-closed";
import { type MovedRow, readEmailedPurchase, summaryOf } from "./store/purchases";

const cancelLinkPurpose = "purchase-cancel";
const linkGraceMs = 7 * 24 * 3_600_000;

/** The dedupe key of the copy email: charging looks it up to decide notice_undelivered. */
export const copyEmailKey = (purchaseId: string) => `purchase-copy:${purchaseId}`;

export const cancelToken = (purchase: { id: string; cancelUntil: Date }) =>
  createLinkToken({
    purpose: cancelLinkPurpose,
    subject: purchase.id,
    expiresAt: new Date(purchase.cancelUntil.getTime() + linkGraceMs),
  });

/** The purchase id a cancel token was issued for, or undefined when forged, for another purpose or expired. */
export const purchaseOfCancelToken = (token: string, now: Date) =>
  verifyLinkToken(token, cancelLinkPurpose, now);

export const cancelUrl = (purchase: { id: string; cancelUntil: Date }) =>
  `${env().PUBLIC_URL}/purchases/${purchase.id}/cancel?token=${encodeURIComponent(cancelToken(purchase))}`;

/** Picture addresses as an email needs them: absolute (the catalogue stores its own as /images/…). */
export const withAbsolutePictures = (summary: OrderSummary): OrderSummary => ({
  ...summary,
  stores: summary.stores.map((store) => ({
    ...store,
    items: store.items.map((item) => ({
      ...item,
      imageUrl: item.imageUrl && absolute(item.imageUrl),
    })),
  })),
});

/**
 * What every email of the purchase carries: its order number and what it bought, in the person's
 * language and zone (accounts' readReadingPreferences), read inside the email's transaction.
 */
const emailBasics = async (tx: Sql, id: string) => {
  const purchase = await readEmailedPurchase(tx, id);
  const reading = await readReadingPreferences(tx, purchase.personId);
  return {
    purchase,
    props: {
      ...reading,
      orderNumber: purchase.orderNumber ?? "",
      summary: withAbsolutePictures(purchase.summary),
    },
  };
};

/**
 * What the copy email told the person, for another email of the same purchase written in the same
 * transaction (a price watch's bought email), which then reads none of it again: what was bought
 * (pictures as the quote keeps them), the reader's locale and zone, and the assistant's name.
 */
export type CopyEmailFacts = {
  summary: OrderSummary;
  locale: Locale;
  timeZone: string;
  assistant: string;
};

/**
 * The copy email, written with the hold: what was bought, the charge time and the cancel link.
 * `held` is the purchase as the hold's move returned it (with its email, quote snapshot and
 * address); the reader's language and zone are read unless the caller has them (`known`).
 */
export const writeCopyEmail = async (
  tx: Sql,
  held: MovedRow & { now: Date; chargesAt: Date; cancelUntil: Date },
  assistant: string,
  known?: ReadingPreferences,
): Promise<CopyEmailFacts> => {
  const { snapshot, address, email } = held;
  if (!snapshot || !address || !email)
    throw new Error(`purchase ${held.id}: moved without its quote`);
  const summary = summaryOf({ snapshot, address, orderNumber: held.orderNumber });
  const reading = known ?? (await readReadingPreferences(tx, held.personId));
  const copy: PurchaseCopyProps = {
    ...reading,
    orderNumber: held.orderNumber ?? "",
    summary: withAbsolutePictures(summary),
    assistant,
    writtenAt: held.now.toISOString(),
    chargesAt: held.chargesAt.toISOString(),
    cancelUntil: held.cancelUntil.toISOString(),
    cancelUrl: cancelUrl(held),
  };
  await enqueueEmail(tx, {
    to: email,
    template: "purchase-copy",
    dedupeKey: copyEmailKey(held.id),
    props: copy,
  });
  return { summary, ...reading, assistant };
};

/** The email that says how the purchase ended, written in the transaction of the move that ended it. */
export const writeClosedEmail = async (tx: Tx, id: string, outcome: PurchaseOutcome, now: Date) => {
  const { purchase, props } = await emailBasics(tx, id);
  const closed: PurchaseClosedProps = {
    ...props,
    assistant: (await findClientContact(tx, purchase.clientId))?.name ?? "",
    outcome,
    closedAt: now.toISOString(),
  };
  await enqueueEmail(tx, {
    to: purchase.email,
    template: "purchase-closed",
    dedupeKey: `purchase-closed:${purchase.id}`,
    props: closed,
  });
};
