/**
 * Price alerts (1.6.0): set, list and stop, for one person. The API (scope alerts:write) and the
 * dashboard (/account/alerts) both call these, so the rules live here once. A person only ever
 * reaches their own alerts (another person's id is not_found). What fires an alert is
 * alert-on-price-change.ts.
 */
import { formatCents, toMoney } from "../core/money";
import { storeCanSellSql } from "../core/store-can-sell";
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { randomId } from "../core/ids";
import { liveAlertsPerPerson, type TPriceAlert, type TPriceAlertList } from "./price-alert.schema";

const alertSelect = {
  id: true,
  status: true,
  itemId: true,
  targetPriceCents: true,
  notifiedPriceCents: true,
  createdAt: true,
  notifiedAt: true,
  stoppedAt: true,
  item: { select: { title: true, url: true, priceCents: true, store: { select: { slug: true } } } },
} as const;

type AlertRow = {
  id: string;
  status: TPriceAlert["status"];
  itemId: number;
  targetPriceCents: number;
  notifiedPriceCents: number | null;
  createdAt: Date;
  notifiedAt: Date | null;
  stoppedAt: Date | null;
  item: { title: string; url: string; priceCents: number; store: { slug: string } };
};

export const toPriceAlert = (row: AlertRow): TPriceAlert => ({
  price_alert_id: row.id,
  status: row.status,
  catalog_item_id: String(row.itemId),
  title: row.item.title,
  url: row.item.url,
  store: row.item.store.slug,
  target_price: toMoney(row.targetPriceCents),
  current_price: toMoney(row.item.priceCents),
  notified_price: row.notifiedPriceCents === null ? null : toMoney(row.notifiedPriceCents),
  created_at: row.createdAt.toISOString(),
  notified_at: row.notifiedAt?.toISOString() ?? null,
  stopped_at: row.stoppedAt?.toISOString() ?? null,
});

type ItemFacts = {
  id: number;
  price_cents: number;
  status: string;
  can_sell: boolean;
  offers_price_alerts: boolean;
};

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
    targetPriceCents: number;
    now: Date;
  },
): Promise<TPriceAlert> => {
  const id = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM persons WHERE id = ${input.personId} FOR UPDATE`;
    const items = await tx.$queryRawUnsafe<ItemFacts[]>(
      `SELECT i.id, i.price_cents, i.status::text AS status, ${storeCanSellSql("s")} AS can_sell, s.offers_price_alerts
       FROM items i JOIN stores s ON s.id = i.store_id WHERE i.id = $1`,
      input.itemId,
    );
    const item = items[0];
    if (!item || item.status === "removed" || !item.can_sell)
      throw new AppError("not_found", { message: `No item ${input.itemId} is for sale.` });
    if (item.status !== "active")
      throw new AppError("item_unavailable", { message: `Item ${input.itemId} has sold.` });
    if (!item.offers_price_alerts)
      throw new AppError("store_alerts_unavailable", {
        message: "This item's store does not offer price alerts.",
      });
    if (item.price_cents <= input.targetPriceCents) {
      throw new AppError("already_at_price", {
        message: `The item is already at ${formatCents(item.price_cents)} CAD, at or under the target: it can be bought now.`,
        details: { current_price: toMoney(item.price_cents) },
      });
    }
    const live = await tx.priceAlert.findMany({
      where: { personId: input.personId, status: "active" },
      select: { id: true, itemId: true },
    });
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
    const created = await tx.priceAlert.create({
      data: {
        id: randomId("alr_"),
        personId: input.personId,
        clientId: input.clientId,
        itemId: input.itemId,
        targetPriceCents: input.targetPriceCents,
        createdAt: input.now,
      },
      select: { id: true },
    });
    return created.id;
  });
  return toPriceAlert(
    await db.priceAlert.findUniqueOrThrow({ where: { id }, select: alertSelect }),
  );
};

/** The person's alerts, newest first, a page at a time (pagination as in search). */
export const listPriceAlerts = async (
  db: Db,
  personId: string,
  page: { page: number; perPage: number },
): Promise<TPriceAlertList> => {
  const [rows, total] = await Promise.all([
    db.priceAlert.findMany({
      where: { personId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page.page - 1) * page.perPage,
      take: page.perPage,
      select: alertSelect,
    }),
    db.priceAlert.count({ where: { personId } }),
  ]);
  return {
    data: rows.map(toPriceAlert),
    pagination: {
      page: page.page,
      per_page: page.perPage,
      total,
      last_page: Math.max(1, Math.ceil(total / page.perPage)),
    },
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
  await db.priceAlert.updateMany({
    where: { id, personId, status: "active" },
    data: { status: "stopped", stoppedAt: now },
  });
  const row = await db.priceAlert.findFirst({ where: { id, personId }, select: alertSelect });
  if (!row) throw new AppError("not_found", { message: "No such price alert." });
  return toPriceAlert(row);
};
