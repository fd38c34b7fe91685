/**
 * The dashboard's list of a person's assistant purchases, and the ownership check before a cancel.
 * These read `purchases` (with the assistant's name from `api_clients` and a purchase's stores from
 * its quote's snapshot): they are here only until purchases' index offers them
 * (`listPurchasesOfPerson`, `isPurchaseOfPerson`), and should move there. Prisma, a page at a time.
 * The price watches' list and check are price-watches' (its index).
 */
import type { Db, Tx } from "../platform/db";

type Client = Db | Tx;

type Page = { personId: string; page: number; pageSize: number };

/** A page of the person's purchases, newest first, one more than the page to tell whether more follow. */
export const listPurchasesOfPerson = (db: Client, { personId, page, pageSize }: Page) =>
  db.purchase.findMany({
    where: { personId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * pageSize,
    take: pageSize + 1,
    select: {
      id: true,
      status: true,
      reason: true,
      orderNumber: true,
      grandTotalCents: true,
      chargesAt: true,
      cancelUntil: true,
      createdAt: true,
      client: { select: { name: true } },
      quote: { select: { snapshot: true } },
    },
  });

/** Whether the purchase is the person's. */
export const isPurchaseOfPerson = async (db: Client, options: { personId: string; id: string }) =>
  (await db.purchase.count({ where: { id: options.id, personId: options.personId } })) > 0;
