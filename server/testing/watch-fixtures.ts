/**
 * A buyer for price-watch tests (the one of agent-purchases.ts: a person with a saved Toronto address,
 * spending limits and a sandbox card, linked to an assistant with purchase:write ticked), and REST
 * helpers for /price-watches through the operation table's handlers.
 */
import { createItem, createStore } from "../../prisma/factories";
import { operationHandler } from "../edges/rest/rest-router";
import { agentWithPerson, type Setup } from "./agent-purchases";
import { callRoute } from "./rest";
import { db } from "../platform/db";
import { createCaller } from "../edges/trpc/caller";
import { createInnerContext } from "../platform/trpc/context";

/** The buyer of POST /purchases' tests (agent-purchases.ts): the same person, card, limits and linked assistant. */
export const createBuyer = agentWithPerson;
export type BuyerOptions = Setup;

/** An item of a store that sells directly to assistants (or `agentCheckout: "link"`). */
export const watchableItem = async (
  priceCents = 10_000,
  store: { agentCheckout?: "direct" | "link" } = {},
) => {
  const created = await createStore({ agentCheckout: store.agentCheckout ?? "direct" });
  return createItem({ storeId: created.id, priceCents });
};

const answer = async (response: Response) => ({
  status: response.status,
  body: await response.json(),
});

export const setWatch = async (token: string, body: Record<string, unknown>) =>
  answer(
    await callRoute(operationHandler("POST /api/v1/price-watches"), {
      path: "/price-watches",
      token,
      body,
    }),
  );

export const listWatches = async (token: string, query = "") =>
  answer(
    await callRoute(operationHandler("GET /api/v1/price-watches"), {
      path: `/price-watches${query}`,
      token,
    }),
  );

export const getWatch = async (token: string, id: number) =>
  answer(
    await callRoute(operationHandler("GET /api/v1/price-watches/{price_watch_id}"), {
      path: `/price-watches/${id}`,
      token,
      params: { price_watch_id: String(id) },
    }),
  );

export const cancelWatchVia = async (token: string, id: number) =>
  answer(
    await callRoute(operationHandler("DELETE /api/v1/price-watches/{price_watch_id}"), {
      method: "DELETE",
      path: `/price-watches/${id}`,
      token,
      params: { price_watch_id: String(id) },
    }),
  );

/**
 * A fresh quote of one item (and size) to the person's saved address, made as the assistant does
 * through POST /checkout/quotes: what the evaluator makes before it claims a watch. Its id.
 */
export const quoteToSavedAddress = async (options: {
  clientId: string;
  personId: string;
  itemId: number;
  size?: string;
}) => {
  const asAssistant = createCaller(
    createInnerContext({
      requestId: "test",
      actor: {
        kind: "client",
        clientId: options.clientId,
        tokenId: "t",
        scopes: ["checkout:write"],
        personId: options.personId,
      },
    }),
  );
  const address = await db().shippingAddress.findUniqueOrThrow({
    where: { personId: options.personId },
  });
  const quote = await asAssistant.checkout.createQuote({
    items: [{ item_id: options.itemId, size: options.size, quantity: 1 }],
    shipping_address: {
      name: address.name,
      line1: address.line1,
      city: address.city,
      province: address.province,
      postal_code: address.postalCode,
      country: "CA",
    },
  });
  return quote.quote_id;
};
