/**
 * A buyer for price-watch tests: a person with a saved Toronto address, spending limits and a
 * sandbox card, linked to an assistant through the real consent and token endpoints (purchase:write
 * ticked), and REST helpers for /price-watches through the operation table's handlers.
 */
import { createAgent, createItem, createPerson, createStore } from "../../prisma/factories";
import { operationHandler } from "../api/rest-router";
import { randomId } from "../auth/tokens";
import { db } from "../db";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { torontoAddress } from "./checkout-fixtures";
import { obtainCode, token as tokenEndpoint } from "./oauth";
import { callRoute } from "./rest";

export type BuyerOptions = { card?: string | null; limits?: [number, number] | null; paused?: boolean; address?: Record<string, string> | null; email?: string };

export const createBuyer = async (options: BuyerOptions = {}) => {
  const { person } = await createPerson(options.email ? { email: options.email } : {});
  const agent = await createAgent();
  const redirectUri = agent.redirectUris[0];
  const { code, verifier } = await obtainCode({ personId: person.id, clientId: agent.id, redirectUri, scope: "catalog:read checkout:write address:read purchase:write", tick: ["purchase:write"] });
  const tokens = await (await tokenEndpoint({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri, client_id: agent.id })).json();
  const address = options.address === undefined ? torontoAddress : options.address;
  if (address) {
    await db().shippingAddress.create({ data: { personId: person.id, name: address.name, line1: address.line1, city: address.city, province: address.province, postalCode: address.postal_code, country: "CA" } });
  }
  const limits = options.limits === undefined ? [100_000, 500_000] : options.limits;
  if (limits) await db().person.update({ where: { id: person.id }, data: { spendingLimitPerOrderCents: limits[0], spendingLimitPer30DaysCents: limits[1], purchasesPaused: options.paused ?? false } });
  const card = options.card === undefined ? testCards.succeeds : options.card;
  if (card) {
    const saved = await sandboxProvider(db()).saveMethod({ idempotencyKey: randomId("save_"), card: { type: "card", number: card, expMonth: 12, expYear: 2031, cvc: "123" } });
    await db().savedCard.create({ data: { personId: person.id, processorCustomerId: saved.customerId, paymentMethodId: saved.paymentMethodId, brand: "visa", last4: card.slice(-4), expMonth: 12, expYear: 2031 } });
  }
  return { person, agent, token: tokens.access_token as string };
};

/** An item of a store that sells directly to assistants (or `agentCheckout: "link"`). */
export const watchableItem = async (priceCents = 10_000, store: { agentCheckout?: "direct" | "link" } = {}) => {
  const created = await createStore({ agentCheckout: store.agentCheckout ?? "direct" });
  return createItem({ storeId: created.id, priceCents });
};

const answer = async (response: Response) => ({ status: response.status, body: await response.json() });

export const setWatch = async (token: string, body: Record<string, unknown>) => answer(await callRoute(operationHandler("POST /api/v1/price-watches"), { path: "/price-watches", token, body }));

export const listWatches = async (token: string, query = "") => answer(await callRoute(operationHandler("GET /api/v1/price-watches"), { path: `/price-watches${query}`, token }));

export const getWatch = async (token: string, id: number) => answer(await callRoute(operationHandler("GET /api/v1/price-watches/{price_watch_id}"), { path: `/price-watches/${id}`, token, params: { price_watch_id: String(id) } }));

export const cancelWatchVia = async (token: string, id: number) =>
  answer(await callRoute(operationHandler("DELETE /api/v1/price-watches/{price_watch_id}"), { method: "DELETE", path: `/price-watches/${id}`, token, params: { price_watch_id: String(id) } }));
