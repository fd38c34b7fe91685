/** Every timed or queued transition the sweep runs; each is idempotent and safe on several instances. */
import type { Db } from "../db";
import { deliverDueEmails } from "../mail/sender";
import { purgeEndedCredentials } from "../auth/oauth/purge";
import { expireDueCheckouts } from "../routers/checkout/checkout-transitions";
import { settlePayments } from "../routers/checkout-page/settle-payments";

export type DueWork = { name: string; run: (options: { db: Db; now: Date }) => Promise<unknown> };

export const dueWork: DueWork[] = [
  { name: "deliver-emails", run: ({ db, now }) => deliverDueEmails({ db, now }) },
  { name: "purge-ended-credentials", run: ({ db, now }) => purgeEndedCredentials({ db, now }) },
  { name: "expire-checkouts", run: ({ db, now }) => expireDueCheckouts(db, { now }) },
  { name: "settle-payments", run: ({ db, now }) => settlePayments({ db, now }) },
];
