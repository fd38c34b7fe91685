/**
 * A price watch's emails, written into the outbox inside the transaction of the move that causes
 * them, each with a dedupe key so a retried step writes it once. The set email carries the watch's
 * cancel link: a signed token for this watch and this purpose only (server/platform/mail/links.ts), valid a
 * week past the watch's expiry so a late click gets "already ended" rather than "bad link".
 */
import { formatCents } from "../core/money";
import { env } from "../platform/env";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { enqueueEmail } from "../platform/mail/outbox";
import type { Sql } from "../platform/sql";
import { cancelUrl as purchaseCancelUrl } from "../purchases";
import { emailTime } from "../platform/mail/email-time";

const cancelLinkPurpose = "price-watch-cancel";
const linkGraceMs = 7 * 24 * 3_600_000;

export const watchCancelToken = (watch: { id: number; expiresAt: Date }) =>
  createLinkToken({
    purpose: cancelLinkPurpose,
    subject: String(watch.id),
    expiresAt: new Date(watch.expiresAt.getTime() + linkGraceMs),
  });

/** The watch id a cancel token was issued for, or undefined when forged, for another purpose or expired. */
export const watchOfCancelToken = (token: string, now: Date) => {
  const subject = verifyLinkToken(token, cancelLinkPurpose, now);
  return subject === undefined ? undefined : Number(subject);
};

const watchCancelUrl = (watch: { id: number; expiresAt: Date }) =>
  `${env().PUBLIC_URL}/price-watches/${watch.id}/cancel?token=${encodeURIComponent(watchCancelToken(watch))}`;

export type EmailedWatch = {
  id: number;
  email: string;
  title: string;
  maxPriceCents: number;
  maxTotalCents: number;
  expiresAt: Date;
};

export const writeWatchSetEmail = (tx: Sql, watch: EmailedWatch, assistant: string) =>
  enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-set",
    dedupeKey: `price-watch-set:${watch.id}`,
    props: {
      assistant,
      title: watch.title,
      maxPrice: formatCents(watch.maxPriceCents),
      maxTotal: formatCents(watch.maxTotalCents),
      expiresAt: emailTime(watch.expiresAt),
      cancelUrl: watchCancelUrl(watch),
    },
  });

export const writeWatchBoughtEmail = (
  tx: Sql,
  watch: EmailedWatch,
  purchase: {
    id: string;
    orderNumber: string;
    grandTotalCents: number;
    chargesAt: Date;
    cancelUntil: Date;
    priceCents: number;
  },
) =>
  enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-bought",
    dedupeKey: `price-watch-bought:${watch.id}`,
    props: {
      title: watch.title,
      price: formatCents(purchase.priceCents),
      grandTotal: formatCents(purchase.grandTotalCents),
      orderNumber: purchase.orderNumber,
      chargesAt: emailTime(purchase.chargesAt),
      cancelUrl: purchaseCancelUrl({ id: purchase.id, cancelUntil: purchase.cancelUntil }),
    },
  });

export const writeWatchNeedsYouEmail = (
  tx: Sql,
  watch: EmailedWatch,
  options: { priceCents: number; reason: string; checkoutUrl: string; checkoutExpiresAt: Date },
) =>
  enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-needs-you",
    dedupeKey: `price-watch-needs-you:${watch.id}`,
    props: {
      title: watch.title,
      price: formatCents(options.priceCents),
      reason: options.reason,
      checkoutUrl: options.checkoutUrl,
      checkoutExpiresAt: emailTime(options.checkoutExpiresAt),
    },
  });

export const writeWatchEndedEmail = (tx: Sql, watch: EmailedWatch, outcome: string) =>
  enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-ended",
    dedupeKey: `price-watch-ended:${watch.id}`,
    props: {
      title: watch.title,
      maxPrice: formatCents(watch.maxPriceCents),
      maxTotal: formatCents(watch.maxTotalCents),
      outcome,
    },
  });
