/**
 * Shared set-up for assistant purchases over HTTP: a person with address, limits and a saved sandbox
 * card, linked to a new agent through the real authorize + token exchange, and the REST calls
 * (quote, POST /purchases, GET /purchases/{id}) through the route handlers.
 */
import { randomUUID } from "node:crypto";
import { createAgent, createItem, createPerson, createStore } from "../../prisma/factories";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { createQuoteVia, torontoAddress } from "./checkout-fixtures";
import { obtainCode, token as tokenEndpoint } from "./oauth";
import { callRoute } from "./rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const postPurchase = operationHandler("POST /api/v1/purchases");
const getPurchaseRoute = operationHandler("GET /api/v1/purchases/{purchase_id}");

export type Setup = {
  card?: string | null;
  limits?: [number, number] | null;
  paused?: boolean;
  address?: Record<string, unknown> | null;
  tick?: string[];
  scope?: string;
  /** Link the person to this agent instead of a new one (two persons of one client). */
  agent?: Awaited<ReturnType<typeof createAgent>>;
};

/** A person with address, limits and card, linked to a new agent; the agent's token. */
export const agentWithPerson = async (options: Setup = {}) => {
  const { person } = await createPerson();
  const agent = options.agent ?? (await createAgent());
  const redirectUri = agent.redirectUris[0];
  const { code, verifier } = await obtainCode({
    personId: person.id,
    clientId: agent.id,
    redirectUri,
    scope: options.scope ?? "catalog:read checkout:write address:read purchase:write",
    tick: options.tick ?? ["purchase:write"],
  });
  const tokens = await (
    await tokenEndpoint({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: agent.id,
    })
  ).json();
  const address = options.address === undefined ? torontoAddress : options.address;
  if (address) {
    await db().shippingAddress.create({
      data: {
        personId: person.id,
        name: String(address.name),
        line1: String(address.line1),
        city: String(address.city),
        province: String(address.province),
        postalCode: String(address.postal_code),
        country: "CA",
      },
    });
  }
  const limits = options.limits === undefined ? [100_000, 500_000] : options.limits;
  if (limits)
    await db().person.update({
      where: { id: person.id },
      data: {
        spendingLimitPerOrderCents: limits[0],
        spendingLimitPer30DaysCents: limits[1],
        purchasesPaused: options.paused ?? false,
      },
    });
  const card = options.card === undefined ? testCards.succeeds : options.card;
  if (card) await saveCard(person.id, card);
  return {
    person,
    agent,
    token: tokens.access_token as string,
    refreshToken: tokens.refresh_token as string,
  };
};

export const saveCard = async (personId: string, card: string) => {
  const saved = await sandboxProvider().saveMethod({
    idempotencyKey: randomId("save_"),
    card: { type: "card", number: card, expMonth: 12, expYear: 2031, cvc: "123" },
  });
  await db().savedCard.create({
    data: {
      personId,
      processorCustomerId: saved.customerId,
      paymentMethodId: saved.paymentMethodId,
      brand: "visa",
      last4: card.slice(-4),
      expMonth: 12,
      expYear: 2031,
    },
  });
};

export const directItem = async (
  priceCents = 2500,
  storeOverrides: Record<string, unknown> = {},
) => {
  const store = await createStore({ agentCheckout: "direct", ...storeOverrides });
  return createItem({ storeId: store.id, priceCents });
};

export const quoteOf = async (
  token: string,
  itemIds: number[],
  address: Record<string, unknown> = torontoAddress,
) => {
  const { body } = await createQuoteVia(
    token,
    itemIds.map((item_id) => ({ item_id })),
    address,
  );
  if (!body.quote_id) throw new Error(JSON.stringify(body));
  return body as { quote_id: string; totals: { grand_total: { amount: string } } };
};

export const buy = async (
  token: string,
  quoteId: string,
  key: string | null = randomUUID(),
  body: Record<string, unknown> = { quote_id: quoteId },
) => {
  const response = await callRoute(postPurchase, {
    path: "/purchases",
    token,
    body,
    headers: key === null ? {} : { "Idempotency-Key": key },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
};

export const getPurchase = async (token: string, id: string) => {
  const response = await callRoute(getPurchaseRoute, {
    path: `/purchases/${id}`,
    token,
    params: { purchase_id: id },
  });
  return { status: response.status, body: await response.json() };
};
