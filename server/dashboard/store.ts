/**
 * The dashboard's lists of a person's assistant purchases and price watches, and the ownership
 * checks before a cancel. These read `purchases` and `price_watches` (with the assistant's name
 * from `api_clients` and a purchase's stores from its quote's snapshot): they are here only until
 * purchases' and price-watches' indexes offer them (`listPurchasesOfPerson`, `isPurchaseOfPerson`,
 * `listWatchesOfPerson`, `isWatchOfPerson`), and should move there. Prisma, a page at a time.
 */
import type { Db, Tx } from "../platform/db";
import { priceWatchSelect } from "../price-watches";

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

/** A page of the person's price watches, newest first, one more than the page to tell whether more follow. */
export const listWatchesOfPerson = (db: Client, { personId, page, pageSize }: Page) =>
  db.priceWatch.findMany({
    where: { personId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * pageSize,
    take: pageSize + 1,
    select: { ...priceWatchSelect, client: { select: { name: true } } },
  });

/** Whether the price watch is the person's. */
export const isWatchOfPerson = async (db: Client, options: { personId: string; id: number }) =>
  (await db.priceWatch.count({ where: { id: options.id, personId: options.personId } })) > 0;
