/** GET /stores/{store_slug}: a store with its free-shipping offer and shipping services. */
import { toMoney } from "../core/money";
import { storeCanSell } from "../core/store-can-sell";
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { ZGetStoreRequest, ZStoreDetail } from "./catalog.schema";
import { findStoreWithRates } from "./store/products";

export const getStore = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZGetStoreRequest)
  .output(ZStoreDetail)
  .query(async ({ ctx, input }) => {
    const store = await findStoreWithRates(ctx.db, input.store_slug);
    if (!store) throw new AppError("not_found", { message: `No store ${input.store_slug}.` });
    return {
      slug: store.slug,
      name: store.name,
      url: store.url,
      agent_checkout: store.agentCheckout,
      province: store.province,
      open_for_orders: storeCanSell(store),
      offers_price_alerts: store.offersPriceAlerts,
      free_shipping:
        store.freeShippingThresholdCents === null
          ? null
          : { threshold: toMoney(store.freeShippingThresholdCents) },
      shipping_services: store.shippingRates.map((rate) => ({
        key: rate.key,
        label: rate.label,
        min_days: rate.minDays,
        max_days: rate.maxDays,
      })),
    };
  });
