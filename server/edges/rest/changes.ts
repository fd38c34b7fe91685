/**
 * The API's change history: the one list the /changelog page renders and the OpenAPI document
 * takes its `info.version` from (the newest entry). Within v1 changes are additive only (reference,
 * Versioning); add an entry here before shipping one. Deprecations of single operations are run-time
 * notices (`ops endpoint:deprecate`) and appear on the page from the database, above these.
 */
export type Change = { version: string; date: string; summary: string };

/** Newest first. Dates are the day the version went live (UTC). */
export const changes: readonly Change[] = [
  {
    version: "1.9.0",
    date: "2026-12-01",
    summary:
      "Price intelligence: GET /products/{id}/price-history (catalog:read) and previous_price on every item; GET /products sort=price_drop and on_sale=true; POST /price-watches/preview and GET /price-watches/{price_watch_id}/evaluations; drop_percent instead of a price on POST /price-watches and POST /price-alerts; search watches (POST, GET /search-watches, GET and DELETE /search-watches/{search_watch_id}: notify with alerts:write, at most one email an hour, or buy with purchase:write); any-of price watch groups (POST, GET /price-watch-groups, GET and DELETE /price-watch-groups/{price_watch_group_id}; new outcomes fulfilled_by_alternative and alternative_needs_you); POST /sandbox/items; the matching MCP tools",
  },
  {
    version: "1.8.0",
    date: "2026-11-27",
    summary:
      "Refunds: each order's refunded amount (GET /me/orders), a store's cancellation shown as cancelled; webhook events order.refunded and purchase.refunded",
  },
  {
    version: "1.7.0",
    date: "2026-11-27",
    summary:
      "GET /purchases: the purchases an assistant made for the linked person, newest first (purchase:write or orders:read); the signed-in connector's list_my_purchases",
  },
  {
    version: "1.6.0",
    date: "2026-10-09",
    summary:
      "Price alerts (POST /price-alerts, GET /price-alerts, DELETE /price-alerts/{price_alert_id}, permission alerts:write); persons connected earlier reconnect to grant it",
  },
  {
    version: "1.5.0",
    date: "2026-10-08",
    summary: "price_watchers on every item; you_are_watching",
  },
  {
    version: "1.4.0",
    date: "2026-10-04",
    summary:
      "Price watches (POST and GET /price-watches, GET and DELETE /price-watches/{price_watch_id}, purchase:write); off until switched on",
  },
  {
    version: "1.3.0",
    date: "2026-10-04",
    summary:
      "Assistant purchases (POST /purchases, GET /purchases/{purchase_id}, purchase:write); off until switched on",
  },
  {
    version: "1.2.1",
    date: "2026-10-03",
    summary:
      "null accepted wherever a field is optional, same as omitting it; responses match the stated types",
  },
  {
    version: "1.2.0",
    date: "2026-10-03",
    summary: "Free-shipping offer on store and on each quote",
  },
  {
    version: "1.1.0",
    date: "2026-10-03",
    summary:
      "GET /me/shipping-address (address:read); POST /checkout/sessions/{checkout_id}/cancel",
  },
  { version: "1.0.0", date: "2026-10-02", summary: "Account linking; GET /me and GET /me/orders" },
  {
    version: "0.3.0",
    date: "2026-10-02",
    summary: "A US quote carries the sales tax charged at checkout",
  },
  {
    version: "0.2.0",
    date: "2026-10-02",
    summary:
      "Checkout quotes, sessions and status; partner limits 3,000 per hour and 120 per minute; passing failure answers 503 with Retry-After",
  },
  { version: "0.1.0", date: "2026-10-02", summary: "Catalogue: search, items, stores, categories" },
];

/** The API's current version: the newest change. */
export const apiVersion = changes[0].version;

/** The fragment of a version's entry on /changelog (`/changelog#v1-6-0`). */
export const versionAnchor = (version: string) => `v${version.replace(/\./g, "-")}`;
