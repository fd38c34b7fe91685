/**
 * A purchase held with a given saved card, without POST /purchases' key and rules: the ops command
 * `purchase:create-sandbox` (sandbox only) and the tests that need a real hold. It opens the
 * purchase in its own short transaction (optionally reserving lines, as POST /purchases does), then
 * takes steps 3 and 4 of buy-quote.ts unchanged: the hold asked outside any transaction, the answer
 * recorded in one, so the sweep's reconciliation and the webhooks treat it as any other purchase.
 */
import type { Db } from "../platform/db";
import { sqlTransaction } from "../platform/sql";
import { openPayment, type PaymentMethod, type PaymentProvider } from "../payments";
import { reserve } from "../checkout";
import {
  askForHold,
  asRefusal,
  chargeDelayMs,
  newPurchaseRow,
  recordAuthorizeAnswer,
  type TestSeam,
} from "./record-answer";
import { insertPurchase } from "./store/purchases";

type SandboxPurchase = {
  clientId: string;
  /** The assistant's name, for the copy email. */
  assistant: string;
  personId: string;
  email: string;
  quoteId: string;
  grandTotalCents: number;
  /** The person's saved card (off-session). */
  method: Extract<PaymentMethod, { type: "saved" }>;
  cardLast4: string | null;
  now: Date;
  /** Reserved with the purchase (given back when it ends uncharged), as POST /purchases does. */
  reserve?: { variantId: number; quantity: number }[];
} & TestSeam;

/** Writes, holds and records the purchase; its id (read it for what was recorded). */
export const holdSandboxPurchase = async (
  db: Db,
  provider: PaymentProvider,
  input: SandboxPurchase,
): Promise<string> => {
  const { now } = input;
  const purchase = newPurchaseRow(input);
  const payment = await sqlTransaction(async (sql) => {
    try {
      if (input.reserve) await reserve(sql, input.reserve);
      await insertPurchase(sql, purchase);
      return await openPayment(sql, {
        owner: { kind: "purchase", id: purchase.id },
        method: "saved",
        amountCents: input.grandTotalCents,
        cardLast4: input.cardLast4,
        now,
      });
    } catch (error) {
      throw asRefusal(error);
    }
  });
  const opened = {
    id: purchase.id,
    email: input.email,
    grandTotalCents: input.grandTotalCents,
    assistant: input.assistant,
    payment,
    method: input.method,
    now,
    chargesAt: new Date(now.getTime() + chargeDelayMs),
  };
  const result = await askForHold(db, provider, opened, input);
  await recordAuthorizeAnswer(db, provider, {
    ...opened,
    result,
    orderNumbers: input.orderNumbers,
  });
  return purchase.id;
};
