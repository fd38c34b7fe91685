/**
 * Assistant purchases for tests, without a token or a POST /purchases call: a person with a card saved at the
 * sandbox processor, an assistant, a quote for one item of a direct store, and the purchase made
 * through the real purchase steps (holdSandboxPurchase), so it holds a real sandbox hold.
 */
import { db } from "../../server/platform/db";
import { randomId } from "../../server/core/ids";
import { sandboxProvider } from "../../server/payments/sandbox";
import { testCards } from "../../server/payments/sandbox-cards";
import { holdSandboxPurchase } from "../../server/purchases/hold-sandbox-purchase";
import { oneLineSnapshot } from "../../server/checkout/quote-snapshot";
import { createAgent, createItem, createPerson, createStore } from ".";

/** A quote row for one item, priced for Toronto as POST /checkout/quotes prices it (lines and parcel). */
export const createPurchasableQuote = async (options: {
  clientId: string;
  personId: string;
  priceCents?: number;
}) => {
  const store = await createStore({ agentCheckout: "direct" });
  const item = await createItem({ storeId: store.id, priceCents: options.priceCents ?? 5000 });
  const variant = await db().variant.findFirstOrThrow({ where: { itemId: item.id } });
  const line = {
    itemId: item.id,
    variantId: variant.id,
    title: item.title,
    size: variant.size,
    color: variant.color,
    quantity: 1,
    unitPriceCents: item.priceCents,
    imageUrl: null,
    url: item.url,
  };
  const rates = await db().shippingRate.findMany({ where: { storeId: store.id } });
  const snapshot = oneLineSnapshot({
    store: {
      storeId: store.id,
      slug: store.slug,
      name: store.name,
      url: store.url,
      agentCheckout: "direct",
      freeShippingThresholdCents: store.freeShippingThresholdCents,
    },
    line,
    rates,
    destination: "ON",
    now: new Date(),
  });
  const quote = await db().quote.create({
    data: {
      id: randomId("quo_"),
      clientId: options.clientId,
      personId: options.personId,
      address: {
        name: "Ana Tremblay",
        line1: "100 Queen St W",
        city: "Toronto",
        province: "ON",
        postal_code: "M5H 2N2",
        country: "CA",
      },
      snapshot,
      expiresAt: new Date(Date.now() + 30 * 60_000),
    },
  });
  return { quote, item };
};

type PurchaseOptions = {
  /** The saved sandbox card (testCards.succeeds by default). */
  card?: string;
  grandTotalCents?: number;
  now?: Date;
  afterAuthorize?: (purchaseId: string) => Promise<void>;
  /** The order numbers to try (a clash on purpose). */
  orderNumbers?: () => string;
  /** An existing person to buy for (a new one by default). */
  person?: { id: string; email: string };
};

/** Everything a purchase needs, then the purchase itself through holdSandboxPurchase. */
export const createPurchase = async (options: PurchaseOptions = {}) => {
  const now = options.now ?? new Date();
  const person = options.person ?? (await createPerson()).person;
  const agent = await createAgent();
  const { quote, item } = await createPurchasableQuote({ clientId: agent.id, personId: person.id });
  const provider = sandboxProvider();
  const card = options.card ?? testCards.succeeds;
  const saved = await provider.saveMethod({
    idempotencyKey: randomId("save_"),
    card: { type: "card", number: card, expMonth: 12, expYear: 2030, cvc: "123" },
  });
  const variant = await db().variant.findFirstOrThrow({ where: { itemId: item.id } });
  const input = {
    clientId: agent.id,
    assistant: agent.name,
    personId: person.id,
    email: person.email,
    quoteId: quote.id,
    grandTotalCents: options.grandTotalCents ?? 5000,
    method: {
      type: "saved" as const,
      customerId: saved.customerId,
      paymentMethodId: saved.paymentMethodId,
    },
    cardLast4: saved.cardLast4,
    now,
    afterAuthorize: options.afterAuthorize,
    orderNumbers: options.orderNumbers,
    // As POST /purchases does: the item is reserved with the purchase (given back when it ends uncharged).
    reserve: [{ variantId: variant.id, quantity: 1 }],
  };
  const purchase = await db().purchase.findUniqueOrThrow({
    where: { id: await holdSandboxPurchase(db(), provider, input) },
  });
  return { purchase, person, agent, quote, item, input };
};

/** A held purchase whose charge (and cancel deadline) is moved to `chargesAt`, as the sandbox helper would. */
export const createHeldPurchase = async (
  options: PurchaseOptions & { chargesAt?: Date; cancelUntil?: Date } = {},
) => {
  const made = await createPurchase(options);
  if (made.purchase.status !== "held")
    throw new Error(`factory: the purchase is ${made.purchase.status}, not held`);
  const chargesAt = options.chargesAt ?? made.purchase.chargesAt!;
  const purchase = await db().purchase.update({
    where: { id: made.purchase.id },
    data: { chargesAt, cancelUntil: options.cancelUntil ?? chargesAt },
  });
  return { ...made, purchase };
};

/** A purchase row alone (processing, no payment yet), for tests of the payment steps. */
export const createBarePurchase = async () => {
  const { person } = await createPerson();
  const agent = await createAgent();
  const { quote, item } = await createPurchasableQuote({ clientId: agent.id, personId: person.id });
  await db().variant.updateMany({
    where: { itemId: item.id },
    data: { quantity: { decrement: 1 } },
  });
  return db().purchase.create({
    data: {
      id: randomId("pur_"),
      clientId: agent.id,
      personId: person.id,
      quoteId: quote.id,
      email: person.email,
      grandTotalCents: 5000,
      cancelUntil: new Date(Date.now() + 86_400_000),
    },
  });
};
