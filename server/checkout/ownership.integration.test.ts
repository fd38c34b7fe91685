/**
 * Quotes and checkouts belong to (client, person): through one assistant serving many people,
 * person B's linked token cannot read, cancel or build on person A's checkout or quote (404), and
 * the client's own client-credentials token sees only person-less objects. Real tokens end to end.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  createItem,
  createLinkingPartner,
  createPerson,
  createStore,
} from "../../prisma/factories";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { basic, obtainCode, token as tokenEndpoint } from "../testing/oauth";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const getSession = operationHandler("GET /api/v1/checkout/sessions/{checkout_id}");
const cancelSession = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");

let storeId: number;
let personA: string;
let personB: string;
let clientToken: string;

beforeAll(async () => {
  storeId = (await createStore()).id;
  const { client, secret } = await createLinkingPartner();
  const auth = { authorization: basic(client.id, secret) };
  const linkedToken = async () => {
    const { person } = await createPerson();
    const { code, verifier } = await obtainCode({
      personId: person.id,
      clientId: client.id,
      redirectUri: client.redirectUris[0],
      scope: "catalog:read checkout:write",
    });
    const response = await tokenEndpoint(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: client.redirectUris[0],
      },
      auth,
    );
    return ((await response.json()) as { access_token: string }).access_token;
  };
  [personA, personB] = [await linkedToken(), await linkedToken()];
  const response = await tokenEndpoint(
    { grant_type: "client_credentials", scope: "catalog:read checkout:write" },
    auth,
  );
  clientToken = ((await response.json()) as { access_token: string }).access_token;
});

const quoteAndCheckout = async (bearer: string) => {
  const item = await createItem({ storeId });
  const quote = await createQuoteVia(bearer, [{ item_id: item.id }]);
  const created = await createCheckoutVia(bearer, {
    quote_id: quote.body.quote_id,
    email: "a@example.ca",
  });
  expect(created.response.status).toBe(201);
  return {
    quoteId: quote.body.quote_id as string,
    checkoutId: JSON.parse(created.text).checkout_id as string,
  };
};

const read = async (bearer: string, id: string) =>
  (
    await callRoute(getSession, {
      path: `/checkout/sessions/${id}`,
      token: bearer,
      params: { checkout_id: id },
    })
  ).status;
const cancel = async (bearer: string, id: string) =>
  (
    await callRoute(cancelSession, {
      method: "POST",
      path: `/checkout/sessions/${id}/cancel`,
      token: bearer,
      params: { checkout_id: id },
    })
  ).status;

describe("per-person ownership through one client", () => {
  it("person B cannot read or cancel person A's checkout, nor create a checkout from A's quote", async () => {
    const { quoteId, checkoutId } = await quoteAndCheckout(personA);
    expect(await read(personB, checkoutId)).toBe(404);
    expect(await cancel(personB, checkoutId)).toBe(404);
    const fromQuote = await createCheckoutVia(personB, {
      quote_id: quoteId,
      email: "b@example.ca",
    });
    expect(fromQuote.response.status).toBe(404);
    expect(await read(personA, checkoutId)).toBe(200);
    expect(await cancel(personA, checkoutId)).toBe(200);
  });

  it("the client-credentials token sees only person-less checkouts and quotes", async () => {
    const linked = await quoteAndCheckout(personA);
    expect(await read(clientToken, linked.checkoutId)).toBe(404);
    expect(await cancel(clientToken, linked.checkoutId)).toBe(404);
    expect(
      (await createCheckoutVia(clientToken, { quote_id: linked.quoteId, email: "c@example.ca" }))
        .response.status,
    ).toBe(404);
    const own = await quoteAndCheckout(clientToken);
    expect(await read(clientToken, own.checkoutId)).toBe(200);
    expect(await read(personA, own.checkoutId)).toBe(404);
    expect(
      (await createCheckoutVia(personA, { quote_id: own.quoteId, email: "a@example.ca" })).response
        .status,
    ).toBe(404);
  });
});
