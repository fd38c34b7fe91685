/**
 * Price alerts (1.6.0): set, list and stop, for one person. The API (scope alerts:write) and the
 * dashboard (/account/alerts) both call these, so the rules live here once. A person only ever
 * reaches their own alerts (another person's id is not_found). What fires an alert is
 * alert-on-price-change.ts.
 */
import { formatCents, toMoney } from "../core/money";
import { findItemCards, type ItemCard, readAlertFacts } from "../catalogue";
import { dropTargetCents, watchedItemOf } from "../price-watches";
import { type Db, inTransaction } from "../platform/db";
import { AppError } from "../core/errors";
import { randomId } from "../core/ids";
import { liveAlertsPerPerson, type TPriceAlert, type TPriceAlertList } from "./price-alert.schema";
import {
  type AlertRow,
  findLiveAlerts,
  findPersonAlert,
  insertAlert,
  listPersonAlerts,
  lockPerson,
  readAlert,
  stopLiveAlert,
} from "./store";

const toPriceAlert = (row: AlertRow, item: ItemCard): TPriceAlert => ({
  price_alert_id: row.id,
  status: row.status,
  catalog_item_id: String(row.itemId),
  title: item.title,
  url: item.url,
  store: item.store.slug,
  target_price: toMoney(row.targetPriceCents),
  drop_percent: row.dropPercent,
  current_price: toMoney(item.priceCents),
  notified_price: row.notifiedPriceCents === null ? null : toMoney(row.notifiedPriceCents),
  created_at: row.createdAt.toISOString(),
  notified_at: row.notifiedAt?.toISOString() ?? null,
  stopped_at: row.stoppedAt?.toISOString() ?? null,
});

/** The alerts with their items' cards (title, url, live price, store, picture: the catalogue's), one read for them all. */
const withCards = async (db: Db, rows: readonly AlertRow[]) => {
  const cards = await findItemCards(
    db,
    rows.map((row) => row.itemId),
  );
  return rows.map((row) => ({ row, card: cards.get(row.itemId)! }));
};

/** The alerts as the wire shows them, each with its item's title, url, live price and store. */
const withItems = async (db: Db, rows: readonly AlertRow[]) =>
  (await withCards(db, rows)).map(({ row, card }) => toPriceAlert(row, card));

/**
 * Sets an alert. Refusals (nothing written): not_found (no such item for sale), item_unavailable
 * (sold), store_alerts_unavailable, already_at_price, already_alerting, too_many_alerts. The
 * person's row is locked for the checks and the insert, so two requests at once cannot both pass
 * the duplicate or the limit check.
 */
export const createPriceAlert = async (
  db: Db,
  input: {
    personId: string;
    clientId: string;
    itemId: number;
    /** A price, or a percentage below the price now (drop_percent, 1.9.0). */
    target: { priceCents: number } | { dropPercent: number };
    now: Date;
  },
): Promise<TPriceAlert> => {
  const id = await inTransaction(db, async (tx) => {
    await lockPerson(tx, input.personId);
    const item = await readAlertFacts(tx, input.itemId);
    if (!item || item.status === "removed" || !item.canSell)
      throw new AppError("not_found", { message: `No item ${input.itemId} is for sale.` });
    if (item.status !== "active")
      throw new AppError("item_unavailable", { message: `Item ${input.itemId} has sold.` });
    if (!item.offersPriceAlerts)
      throw new AppError("store_alerts_unavailable", {
        message: "This item's store does not offer price alerts.",
      });
    // With drop_percent the target is below the price read here, under the person's lock: never already_at_price (ADR 0116).
    const targetPriceCents =
      "priceCents" in input.target
        ? input.target.priceCents
        : dropTargetCents(item.priceCents, input.target.dropPercent);
    if (item.priceCents <= targetPriceCents) {
      throw new AppError("already_at_price", {
        message: `The item is already at ${formatCents(item.priceCents)} CAD, at or under the target: it can be bought now.`,
        details: { current_price: toMoney(item.priceCents) },
      });
    }
    const live = await findLiveAlerts(tx, input.personId);
    const existing = live.find((alert) => alert.itemId === input.itemId);
    if (existing)
      throw new AppError("already_alerting", {
        message: "There is already a live alert on this item; stop it to set another target.",
        details: { price_alert_id: existing.id },
      });
    if (live.length >= liveAlertsPerPerson) {
      throw new AppError("too_many_alerts", {
        message: `At most ${liveAlertsPerPerson} live alerts per person; stop one first.`,
        details: { limit: liveAlertsPerPerson },
      });
    }
    return insertAlert(tx, {
      id: randomId("alr_"),
      personId: input.personId,
      clientId: input.clientId,
      itemId: input.itemId,
      targetPriceCents,
      dropPercent: "dropPercent" in input.target ? input.target.dropPercent : null,
      createdAt: input.now,
    });
  });
  const [alert] = await withItems(db, [await readAlert(db, id)]);
  return alert;
};

const pageOf = async (db: Db, personId: string, page: { page: number; perPage: number }) => {
  const { rows, total } = await listPersonAlerts(db, personId, {
    skip: (page.page - 1) * page.perPage,
    take: page.perPage,
  });
  return {
    rows,
    pagination: {
      page: page.page,
      per_page: page.perPage,
      total,
      last_page: Math.max(1, Math.ceil(total / page.perPage)),
    },
  };
};

/** The person's alerts, newest first, a page at a time (pagination as in search). */
export const listPriceAlerts = async (
  db: Db,
  personId: string,
  page: { page: number; perPage: number },
): Promise<TPriceAlertList> => {
  const { rows, pagination } = await pageOf(db, personId, page);
  return { data: await withItems(db, rows), pagination };
};

/** listPriceAlerts with each alert's item as the shopper's page shows it (picture, condition, store name): the dashboard's list. */
export const listPriceAlertsWithItems = async (
  db: Db,
  personId: string,
  page: { page: number; perPage: number },
) => {
  const { rows, pagination } = await pageOf(db, personId, page);
  return {
    data: (await withCards(db, rows)).map(({ row, card }) => ({
      ...toPriceAlert(row, card),
      item: watchedItemOf(card),
    })),
    pagination,
  };
};

/**
 * Stops the person's alert: active to stopped. An alert that already ended (notified or stopped)
 * is answered as it is, so a repeated stop is harmless. Another person's alert is not_found.
 */
export const stopPriceAlert = async (
  db: Db,
  personId: string,
  id: string,
  now: Date,
): Promise<TPriceAlert> => {
  await stopLiveAlert(db, { personId, id, now });
  const row = await findPersonAlert(db, personId, id);
  if (!row) throw new AppError("not_found", { message: "No such price alert." });
  const [alert] = await withItems(db, [row]);
  return alert;
};
