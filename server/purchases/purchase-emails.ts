/**
 * The purchase's emails, written into the outbox inside the transaction of the move that causes
 * them, each with a dedupe key so a retried step writes it once. The copy carries the cancel link:
 * a signed, single-purpose token for this purchase (server/platform/mail/links.ts). It stays verifiable a
 * week past cancel_until so that a late click gets "too late, and why" rather than "bad link".
 */
import { formatCents } from "../core/money";
import { env } from "../platform/env";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { enqueueEmail } from "../platform/mail/outbox";
import type { Sql } from "../platform/sql";
import type { PurchaseClosedProps } from "../../emails/purchase-closed";
import { emailTime } from "../platform/mail/email-time";

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

type Emailed = { id: string; email: string; orderNumber: string | null; grandTotalCents: number };

export const writeCopyEmail = (
  tx: Sql,
  purchase: Emailed & { chargesAt: Date; cancelUntil: Date },
  assistant: string,
) =>
  enqueueEmail(tx, {
    to: purchase.email,
    template: "purchase-copy",
    dedupeKey: copyEmailKey(purchase.id),
    props: {
      orderNumber: purchase.orderNumber,
      assistant,
      grandTotal: formatCents(purchase.grandTotalCents),
      chargesAt: emailTime(purchase.chargesAt),
      cancelUntil: emailTime(purchase.cancelUntil),
      cancelUrl: cancelUrl(purchase),
    },
  });

export const writeClosedEmail = (
  tx: Sql,
  purchase: Emailed,
  outcome: PurchaseClosedProps["outcome"],
) =>
  enqueueEmail(tx, {
    to: purchase.email,
    template: "purchase-closed",
    dedupeKey: `purchase-closed:${purchase.id}`,
    props: {
      orderNumber: purchase.orderNumber,
      grandTotal: formatCents(purchase.grandTotalCents),
      outcome,
    },
  });
