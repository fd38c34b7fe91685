/**
 * /api/trpc over HTTP (the exported route handlers, called as Next calls them): the dashboard
 * procedures with the session cookie, and the CSRF refusals (B2-21) that must change nothing.
 */
import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import * as route from "../../../app/api/trpc/[trpc]/route";
import { createLinkedPerson, createPerson } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { captureLogLines } from "../../testing/log-capture";

const origin = () => new URL(env().PUBLIC_URL).origin;

const sessionCookie = async (personId: string, authAt = Date.now()) =>
  `next-auth.session-token=${await encode({ token: { sub: personId, authAt }, secret: env().APP_SECRET })}`;

type Call = {
  method?: string;
  path: string;
  cookie?: string;
  body?: string;
  headers?: Record<string, string>;
};

const call = async ({ method = "GET", path, cookie, body, headers = {} }: Call) => {
  const request = new Request(`${origin()}/api/trpc/${path}`, {
    method,
    body,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
  const handler = method === "POST" ? route.POST : route.GET;
  const response = await handler(request);
  return {
    status: response.status,
    body: (await response.json()) as {
      result?: { data: Record<string, unknown> };
      error?: { message: string; code: number; data: Record<string, unknown> };
    },
  };
};

const limits = { limit_per_order: "500.00", limit_per_30_days: "2000.00" };
const jsonPost = (
  path: string,
  cookie: string | undefined,
  input: unknown,
  headers: Record<string, string> = {},
) =>
  call({
    method: "POST",
    path,
    cookie,
    body: JSON.stringify(input),
    headers: { "content-type": "application/json", origin: origin(), ...headers },
  });

const storedLimits = async (personId: string) =>
  db().person.findUniqueOrThrow({
    where: { id: personId },
    select: {
      spendingLimitPerOrderCents: true,
      spendingLimitPer30DaysCents: true,
      purchasesPaused: true,
    },
  });
const untouched = {
  spendingLimitPerOrderCents: null,
  spendingLimitPer30DaysCents: null,
  purchasesPaused: false,
};

describe("/api/trpc", () => {
  it("saves limits and pauses with the session cookie (POST JSON, own origin), and reads them with GET", async () => {
    const { person } = await createPerson();
    const cookie = await sessionCookie(person.id);
    const saved = await jsonPost("account.setSpendingLimits", cookie, limits);
    expect(saved).toMatchObject({
      status: 200,
      body: { result: { data: { limit_per_order: { amount: "500.00", currency: "CAD" } } } },
    });
    expect((await jsonPost("account.setPurchasesPaused", cookie, { paused: true })).status).toBe(
      200,
    );
    const read = await call({ path: "account.getSpendingSettings", cookie });
    expect(read).toMatchObject({
      status: 200,
      body: {
        result: { data: { limit_per_30_days: { amount: "2000.00" }, purchases_paused: true } },
      },
    });
    expect(await storedLimits(person.id)).toEqual({
      spendingLimitPerOrderCents: 50_000,
      spendingLimitPer30DaysCents: 200_000,
      purchasesPaused: true,
    });
  });

  it("answers a validation failure with tRPC's shape: 422, our code and the fields", async () => {
    const { person } = await createPerson();
    const refused = await jsonPost("account.setSpendingLimits", await sessionCookie(person.id), {
      ...limits,
      limit_per_order: "12.345",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.data).toMatchObject({
      code: "invalid_request",
      httpStatus: 422,
      fields: { limit_per_order: expect.stringContaining("two decimals") },
    });
  });

  it("refuses a cross-origin POST, a POST without Origin, a form-encoded or text POST, and a GET mutation, changing nothing", async () => {
    const { person } = await createPerson();
    const cookie = await sessionCookie(person.id);
    const crossOrigin = await jsonPost("account.setSpendingLimits", cookie, limits, {
      origin: "https://evil.example",
    });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.body.error?.data).toMatchObject({ code: "forbidden", httpStatus: 403 });
    const noOrigin = await call({
      method: "POST",
      path: "account.setPurchasesPaused",
      cookie,
      body: JSON.stringify({ paused: true }),
      headers: { "content-type": "application/json" },
    });
    expect(noOrigin.status).toBe(403);
    for (const type of [
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
    ]) {
      const form = await call({
        method: "POST",
        path: "account.setSpendingLimits",
        cookie,
        body: new URLSearchParams(limits).toString(),
        headers: { "content-type": type, origin: origin() },
      });
      expect(form.status).toBe(415);
      expect(form.body.error?.data).toMatchObject({ code: "unsupported_media_type" });
    }
    const getMutation = await call({
      path: `account.setPurchasesPaused?input=${encodeURIComponent(JSON.stringify({ paused: true }))}`,
      cookie,
    });
    expect(getMutation.status).toBe(405);
    expect(await storedLimits(person.id)).toEqual(untouched);
  });

  it("refuses a body over the cap with 413", async () => {
    const { person } = await createPerson();
    const big = await jsonPost("account.setSpendingLimits", await sessionCookie(person.id), {
      ...limits,
      padding: "x".repeat(20_000),
    });
    expect(big.status).toBe(413);
    expect(await storedLimits(person.id)).toEqual(untouched);
  });

  it("is 401 signed out, with a forged cookie, or with a session older than a password change", async () => {
    const { person } = await createPerson();
    expect((await call({ path: "account.getSpendingSettings" })).body.error?.data).toMatchObject({
      code: "unauthorized",
      httpStatus: 401,
    });
    expect((await jsonPost("account.setSpendingLimits", undefined, limits)).status).toBe(401);
    expect(
      (await jsonPost("account.setSpendingLimits", "next-auth.session-token=forged", limits))
        .status,
    ).toBe(401);
    const stale = await sessionCookie(person.id, Date.now() - 60_000);
    await db().person.update({ where: { id: person.id }, data: { passwordChangedAt: new Date() } });
    expect((await jsonPost("account.setSpendingLimits", stale, limits)).status).toBe(401);
    expect(await storedLimits(person.id)).toEqual(untouched);
  });

  it("gives a partner's bearer token nothing, even one the person linked", async () => {
    const { person, token } = await createLinkedPerson({
      scopes: ["profile:read", "purchase:write"],
    });
    const bearer = { authorization: `Bearer ${token}` };
    expect((await jsonPost("account.setSpendingLimits", undefined, limits, bearer)).status).toBe(
      401,
    );
    expect((await call({ path: "account.getSpendingSettings", headers: bearer })).status).toBe(401);
    expect(await storedLimits(person.id)).toEqual(untouched);
  });

  it("saves, reads and removes the card with the session cookie; never by GET, from another origin, or with a token", async () => {
    const { person, token } = await createLinkedPerson({
      scopes: ["profile:read", "purchase:write"],
    });
    const cookie = await sessionCookie(person.id);
    const card = { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2030, cvc: "123" };
    const savedCard = () => db().savedCard.count({ where: { personId: person.id } });
    const getMutation = await call({
      path: `account.saveCard?input=${encodeURIComponent(JSON.stringify(card))}`,
      cookie,
    });
    expect(getMutation.status).toBe(405);
    expect(
      (await jsonPost("account.saveCard", cookie, card, { origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(
      (await jsonPost("account.saveCard", undefined, card, { authorization: `Bearer ${token}` }))
        .status,
    ).toBe(401);
    expect(await savedCard()).toBe(0);
    const refused = await jsonPost("account.saveCard", cookie, { ...card, cvc: "1" });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.data).toMatchObject({
      code: "invalid_request",
      fields: { cvc: "must be 3 or 4 digits" },
    });
    const saved = await jsonPost("account.saveCard", cookie, card);
    expect(saved.status).toBe(200);
    expect(saved.body.result?.data).toMatchObject({ card: { brand: "visa", last4: "4242" } });
    expect((await call({ path: "account.getSavedCard", cookie })).body.result?.data).toMatchObject({
      card: { last4: "4242" },
    });
    expect(
      (
        await jsonPost("account.removeCard", undefined, undefined, {
          authorization: `Bearer ${token}`,
        })
      ).status,
    ).toBe(401);
    expect(await savedCard()).toBe(1);
    expect((await jsonPost("account.removeCard", cookie, undefined)).body.result?.data).toEqual({
      card: null,
      card_entry: "sandbox_test_cards",
    });
    expect(await savedCard()).toBe(0);
  });

  it("hides an unexpected error's message behind a reference, and refuses batches", async () => {
    const { person } = await createPerson();
    const cookie = await sessionCookie(person.id);
    const logs = captureLogLines();
    const update = vi
      .spyOn(db(), "$transaction")
      .mockRejectedValueOnce(new Error("secret internal detail"));
    const failed = await jsonPost("account.setSpendingLimits", cookie, limits, {
      "x-request-id": "req-limits-1",
    });
    update.mockRestore();
    expect(failed.status).toBe(500);
    // The fault is logged once, with its stack, under the reference the answer names.
    const faults = logs.lines.filter((line) => line.err !== undefined);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({
      request_id: "req-limits-1",
      err: { message: expect.stringContaining("secret internal detail") },
    });
    expect(failed.body.error).toMatchObject({
      message: expect.stringContaining("req-limits-1"),
      data: { code: "internal_error", httpStatus: 500 },
    });
    expect(JSON.stringify(failed.body)).not.toContain("secret internal detail");
    expect(
      (
        await call({
          path: "account.getSpendingSettings,account.getSpendingSettings?batch=1&input=%7B%7D",
          cookie,
        })
      ).status,
    ).toBe(400);
  });

  it("exposes only the dashboard procedures: the rest of the app router is not found", async () => {
    const { person } = await createPerson();
    const cookie = await sessionCookie(person.id);
    for (const path of [
      "account.getMe",
      "catalog.search",
      "sandbox.expireCheckout",
      "developers.createApplication",
    ]) {
      expect((await call({ path, cookie })).status).toBe(404);
    }
    expect(
      (await jsonPost("account.updateProfile", cookie, { name: "X", email: "x@example.ca" }))
        .status,
    ).toBe(404);
  });
});
