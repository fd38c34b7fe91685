/**
 * `purchase:create-sandbox` (sandbox only): an assistant purchase for a sandbox person, made
 * through the real purchase steps (holdSandboxPurchase) with the person's saved test card, so it
 * holds a real sandbox hold and sends the copy email. For demos and the browser tests of
 * /account/purchases: POST /purchases does the same with an assistant's token and all its checks
 * (limits, store `direct`, Quebec); this command skips those and charges the item with the store's
 * cheapest shipping and tax to Toronto, reserving one unit as POST /purchases does.
 */
import { db, inTransaction } from "../../platform/db";
import { fail } from "./commands";
import { formatCents } from "../../core/money";
import { env } from "../../platform/env";
import { randomId } from "../../core/ids";
import { paymentProvider } from "../../payments";
import {
  cancelUrl,
  chargeSandboxPurchaseNow,
  holdSandboxPurchase,
  readPurchaseSummary,
} from "../../purchases";
import {
  findPersonByEmail,
  findShippingAddress,
  readSavedCard,
  toShippingAddress,
} from "../../accounts";
import { insertClient } from "../../auth";
import { insertQuote, reserve } from "../../checkout";
import { oneLineSnapshot, snapshotTotals } from "../../checkout";
import { findBuyableItem, markItemSold, shippingRatesOf } from "../../catalogue";

/** The quote's address when the person saved none (a purchase reads only its snapshot's stores). */
const placeholderAddress = {
  name: "Sandbox Person",
  line1: "100 Queen St W",
  city: "Toronto",
  province: "ON" as const,
  postal_code: "M5H 2N2",
  country: "CA",
};

export const createSandboxPurchase = async (options: {
  email?: string;
  item?: string;
  assistant?: string;
}) => {
  if (env().SERVICE_ENV !== "sandbox")
    fail("purchase:create-sandbox works only in the sandbox (SERVICE_ENV=sandbox)");
  const email = (options.email ?? fail("--email is required")).trim().toLowerCase();
  const person =
    (await findPersonByEmail(db(), email)) ?? fail(`no person with the email ${email}`);
  const saved = await findShippingAddress(db(), person.id);
  // Shipped where the person asked, as POST /purchases ships to the saved address.
  const address = saved ? toShippingAddress(saved) : placeholderAddress;
  const card =
    (await readSavedCard(db(), person.id)) ??
    fail(`${email} has no saved card: create the person with --card 4242424242424242`);
  const itemId =
    options.item === undefined
      ? undefined
      : /^\d{1,12}$/.test(options.item)
        ? Number(options.item)
        : fail("--item must be an item id (a number)");
  const item =
    (await findBuyableItem(db(), itemId)) ??
    fail(options.item ? `no item ${options.item}` : "no item in the catalogue: run catalog:seed");
  if (item.status !== "active") fail(`item ${item.id} is not for sale`);
  const variant = item.variants[0] ?? fail(`item ${item.id} is sold out`);
  const now = new Date();
  const line = {
    itemId: item.id,
    variantId: variant.id,
    title: item.title,
    size: variant.size,
    color: variant.color,
    quantity: 1,
    condition: item.condition,
    unitPriceCents: item.priceCents,
    imageUrl: item.images[0]?.url ?? null,
    url: item.url,
  };
  const { id: storeId, ...store } = item.store;
  const rates = await shippingRatesOf(db(), storeId);
  const snapshot = oneLineSnapshot({
    store: { storeId, ...store },
    line,
    rates,
    destination: address.province,
    now,
  });
  // As POST /purchases does, the item is reserved with the purchase (given back when it ends uncharged).
  const { assistant, quote } = await inTransaction(db(), async (tx) => {
    if (!(await reserve(tx, [{ variantId: variant.id, quantity: 1 }])).size)
      fail(`item ${item.id} is not available (sold out, or its store is not selling)`);
    const agent = await insertClient(tx, {
      id: randomId("cli_"),
      name: options.assistant ?? "Sandbox Assistant",
      kind: "agent",
      secretHash: null,
      scopes: ["catalog:read", "purchase:write"],
      redirectUris: [],
      linkingEnabled: true,
    });
    const made = {
      id: randomId("quo_"),
      clientId: agent.id,
      personId: person.id,
      email: null,
      address,
      snapshot,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 30 * 60_000),
    };
    await insertQuote(tx, made);
    return { assistant: agent, quote: made };
  });
  const purchaseId = await holdSandboxPurchase(db(), paymentProvider(), {
    clientId: assistant.id,
    assistant: assistant.name,
    personId: person.id,
    email: person.email,
    quoteId: quote.id,
    grandTotalCents: snapshotTotals(snapshot, {}).grandTotalCents,
    method: {
      type: "saved",
      customerId: card.processorCustomerId,
      paymentMethodId: card.paymentMethodId,
    },
    cardLast4: card.last4,
    now,
  });
  const purchase = await readPurchaseSummary(db(), purchaseId);
  return {
    purchase_id: purchase.id,
    status: purchase.status,
    order_number: purchase.orderNumber,
    grand_total: formatCents(purchase.grandTotalCents),
    charges_at: purchase.chargesAt?.toISOString() ?? null,
    cancel_until: purchase.cancelUntil.toISOString(),
    // The copy email's link (sandbox only, as this command is): demos and browser tests open it.
    cancel_url: cancelUrl(purchase),
    assistant: assistant.name,
    item_id: item.id,
    item_title: item.title,
    store: item.store.name,
  };
};

/**
 * `sandbox:purchase-due PUR_ID` (sandbox only): the held purchase's charge time comes now and the
 * charge runs as the sweep runs it: paid, or cancelled (item_sold, notice_undelivered).
 */
export const makeSandboxPurchaseDue = async (purchaseId: string | undefined) => {
  if (env().SERVICE_ENV !== "sandbox")
    fail("sandbox:purchase-due works only in the sandbox (SERVICE_ENV=sandbox)");
  if (!purchaseId?.startsWith("pur_")) fail("usage: sandbox:purchase-due PUR_ID");
  const { outcome } = await chargeSandboxPurchaseNow(db(), paymentProvider(), {
    id: purchaseId!,
    now: new Date(),
  });
  const purchase = await readPurchaseSummary(db(), purchaseId!);
  return { purchase_id: purchase.id, status: purchase.status, outcome };
};

/**
 * `sandbox:item-sold ITEM_ID` (sandbox only): the store sold the item elsewhere; it leaves search
 * and reads as not available, a held purchase of it is cancelled at its charge (item_sold), and its
 * live price watches end item_sold and its alerts stop (markItemSold's `sold` event).
 */
export const markSandboxItemSold = async (itemId: string | undefined) => {
  if (env().SERVICE_ENV !== "sandbox")
    fail("sandbox:item-sold works only in the sandbox (SERVICE_ENV=sandbox)");
  if (!itemId || !/^[1-9]\d{0,9}$/.test(itemId)) fail("usage: sandbox:item-sold ITEM_ID");
  if (!(await markItemSold(db(), Number(itemId), new Date())))
    fail(`item ${itemId} is not for sale (no such item, or already sold or removed)`);
  return { item_id: Number(itemId), status: "sold" };
};
