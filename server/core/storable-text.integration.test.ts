/**
 * L2 (issue 24): a NUL or other control character, a lone surrogate or deep nesting in any input
 * is a 422 naming the field (PostgreSQL refused the NUL: a 500), checked once in the base procedure
 * so REST, MCP tools, tRPC and page procedures all get it; the agent registration endpoint (no
 * procedure) uses the same check with its RFC 7591 error.
 */
import { describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { POST as register } from "@/app/oauth/register/agent/route";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { operationHandler } from "../edges/rest/rest-router";
import { allScopes } from "../auth/scopes";
import { issueAccessToken } from "../auth/tokens";
import { db } from "../platform/db";
import { AppError } from "./errors";
import { torontoAddress } from "../testing/checkout-fixtures";
import { pageCaller } from "../testing/page-caller";
import { callRoute } from "../testing/rest";
import { socketAddressHeader } from "../platform/http/client-ip";
import { findUnstorableInput } from "./storable-text";

const postQuote = operationHandler("POST /api/v1/checkout/quotes");

const partnerToken = async () => {
  const partner = await createPartner({ scopes: [...allScopes] });
  return (
    await issueAccessToken(db(), {
      clientId: partner.client.id,
      scopes: allScopes,
      now: new Date(),
    })
  ).token;
};

describe("findUnstorableInput", () => {
  it("names the field holding a control character or a lone surrogate, and passes ordinary text", () => {
    expect(findUnstorableInput({ name: "Zoë 🧥 O'Brien\tJr.\r\n" })).toBeUndefined();
    expect(findUnstorableInput({ shipping_address: { name: "a\u0000b" } })).toMatchObject({
      field: "shipping_address.name",
    });
    expect(findUnstorableInput({ items: [{ size: "\u001b[31m" }] })).toMatchObject({
      field: "items[0].size",
    });
    expect(findUnstorableInput({ first_name: "\ud800" })).toMatchObject({ field: "first_name" });
    expect(findUnstorableInput({ first_name: "x\udc00" })).toMatchObject({ field: "first_name" });
    expect(findUnstorableInput({ "na\u0000me": "x" })).toMatchObject({ field: "body" });
    expect(findUnstorableInput("\u0000")).toMatchObject({ field: "body" });
    let deep: unknown = "x";
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(findUnstorableInput({ metadata: deep })).toMatchObject({
      field: "metadata[0]",
      reason: expect.stringMatching(/nested/),
    });
    expect(findUnstorableInput({ when: new Date(), count: 1e308 })).toBeUndefined();
  });
});

describe("control characters reach no database", () => {
  it.each([
    ["a NUL", "Ana\u0000Lima"],
    ["an escape", "Ana\u001bLima"],
    ["a lone surrogate", "Ana\ud83dLima"],
  ])("REST: %s in the quote's address name is a 422 naming the field", async (_label, name) => {
    const token = await partnerToken();
    const store = await createStore({ agentCheckout: "direct" });
    const item = await createItem({ storeId: store.id, priceCents: 4500 });
    const response = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      body: { items: [{ item_id: item.id }], shipping_address: { ...torontoAddress, name } },
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.fields).toEqual({
      "shipping_address.name": expect.stringMatching(/control characters/),
    });
  });

  it("a page procedure (sign-up) refuses a NUL in the name with invalid_request on that field", async () => {
    const failure = await pageCaller()
      .shopperAuth.signUp({
        email: "nul@example.ca",
        password: "long enough password",
        name: "Ana\u0000",
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(TRPCError);
    const cause = (failure as TRPCError).cause;
    expect(cause).toBeInstanceOf(AppError);
    expect((cause as AppError).code).toBe("invalid_request");
    expect((cause as AppError).options.fields).toEqual({
      name: expect.stringMatching(/control characters/),
    });
  });

  it("agent registration refuses a NUL in any metadata field (jsonb refuses it) with invalid_client_metadata", async () => {
    const response = await register(
      new Request("http://localhost:3000/oauth/register/agent", {
        method: "POST",
        headers: { "content-type": "application/json", [socketAddressHeader]: "203.0.113.77" },
        body: JSON.stringify({
          client_name: "Helper",
          redirect_uris: ["https://helper.example/cb"],
          software_id: "x\u0000y",
        }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/software_id/),
    });
  });
});
