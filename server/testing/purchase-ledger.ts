/** What the sandbox processor did with a purchase's hold: its status, and how many capture and release calls it answered. */
import { db } from "../platform/db";

export const sandboxLedger = async (purchaseId: string) => {
  const hold = await db().sandboxPayment.findUniqueOrThrow({
    where: { idempotencyKey: `${purchaseId}:authorize` },
  });
  const holds = await db().sandboxPayment.count({
    where: { idempotencyKey: { startsWith: `${purchaseId}:` } },
  });
  const captures = await db().sandboxProcessorRequest.count({
    where: { idempotencyKey: `${purchaseId}:capture` },
  });
  const releases = await db().sandboxProcessorRequest.count({
    where: { idempotencyKey: `${purchaseId}:release` },
  });
  return { status: hold.status, holds, captures, releases };
};
