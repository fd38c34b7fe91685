/**
 * An operation's lifecycle on the REST edge: the exact Deprecation, Sunset and Link headers of a
 * deprecated operation, 410 retired in a brownout and after the sunset (and the same moments for
 * the MCP connector's check), restore, the notices to recent callers in the outbox, the OpenAPI
 * document's deprecated flag, and a change written by another process seen within a second.
 */
import { changes } from "./changes";
import { afterEach, describe, expect, it } from "vitest";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { createPartner, createPerson } from "../../../prisma/factories";
import { renderEmail } from "../../../emails/render";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { flushCalls } from "./call-log";
import { deprecateEndpoint, listLifecycles, restoreEndpoint } from "./endpoint-lifecycle";
import { forgetLifecycles, lifecycleRefreshMs } from "./lifecycle-store";
import { retiredErrorFor } from "./lifecycle-verdict";
import { callRoute } from "../../testing/rest";
import { operationHandler } from "./rest-router";

const categories = operationHandler("GET /api/v1/categories");
const products = operationHandler("GET /api/v1/products");
const product = operationHandler("GET /api/v1/products/{id}");

const operation = "GET /api/v1/categories";
const replacement = "https://developers.example/changes/categories-v2";
const dayMs = 24 * 60 * 60 * 1000;
const monthsFrom = (date: Date, months: number) => {
  const result = new Date(date);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
};
/** A whole second, so the Deprecation value is exact. */
const second = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

afterEach(async () => {
  await db().endpointLifecycle.deleteMany();
  forgetLifecycles();
});

const listCategories = async (token: string) =>
  callRoute(categories as never, { path: "/categories", token });

describe("a deprecated operation", () => {
  it("carries Deprecation (@epoch), Sunset (HTTP date) and Link on every response; other operations do not", async () => {
    const token = await (await createPartner()).token();
    const announced = second(new Date());
    const sunset = new Date("2027-09-30T00:00:00Z");
    await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [],
      now: announced,
    });

    const response = await listCategories(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe(`@${announced.getTime() / 1000}`);
    expect(response.headers.get("sunset")).toBe("Thu, 30 Sep 2027 00:00:00 GMT");
    expect(response.headers.get("link")).toBe(
      `<${replacement}>; rel="deprecation", <${env().PUBLIC_URL}/changelog#deprecate-get-api-v1-categories>; rel="sunset"`,
    );
    expect(response.headers.get("x-request-id")).toBeTruthy();

    // An error answer of the operation carries them too (here: no token).
    const unauthorized = await callRoute(categories as never, { path: "/categories" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("sunset")).toBe("Thu, 30 Sep 2027 00:00:00 GMT");

    const other = await callRoute(products as never, { path: "/products?per_page=1", token });
    expect(other.status).toBe(200);
    expect(other.headers.get("deprecation")).toBeNull();
    expect(other.headers.get("sunset")).toBeNull();
    expect(await retiredErrorFor(operation)).toBeUndefined();
  });

  it("matches a path with a parameter to its operation id", async () => {
    const token = await (await createPartner()).token();
    await deprecateEndpoint({
      operationId: "GET /api/v1/products/{id}",
      sunset: new Date("2027-12-01T00:00:00Z"),
      replacement,
      brownouts: [],
      now: new Date(),
    });
    const response = await callRoute(product as never, {
      path: "/products/999999",
      token,
      params: { id: "999999" },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("sunset")).toBe("Wed, 01 Dec 2027 00:00:00 GMT");
  });

  it("answers 410 retired with the Link during a brownout window only, for REST and the MCP check alike", async () => {
    const token = await (await createPartner()).token();
    const now = Date.now();
    const announced = new Date(now - 60 * 60 * 1000);
    const sunset = monthsFrom(announced, 7);
    const during = { start: new Date(now - 10 * 60 * 1000), end: new Date(now + 10 * 60 * 1000) };
    const later = {
      start: new Date(now + 2 * dayMs),
      end: new Date(now + 2 * dayMs + 60 * 60 * 1000),
    };
    await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [later, during],
      now: announced,
    });

    const response = await listCategories(token);
    expect(response.status).toBe(410);
    const body = await response.json();
    expect(body.error.code).toBe("retired");
    expect(body.error.message).toContain(replacement);
    expect(response.headers.get("link")).toContain(`<${replacement}>; rel="deprecation"`);
    expect(response.headers.get("deprecation")).toBe(`@${Math.floor(announced.getTime() / 1000)}`);
    // A partner response: the rate-limit headers come with the 410 (DESIGN.md "Headers").
    expect(response.headers.get("ratelimit-limit")).toBeTruthy();
    expect(response.headers.get("ratelimit-remaining")).toBeTruthy();
    expect(response.headers.get("ratelimit-policy")).toBeTruthy();
    // A missing or invalid token is 401 first, as the reference says, with the lifecycle headers.
    for (const token of [undefined, "sat_not-a-token"]) {
      const unauthorized = await callRoute(categories as never, { path: "/categories", token });
      expect(unauthorized.status, String(token)).toBe(401);
      expect(unauthorized.headers.get("www-authenticate")).toContain("Bearer");
      expect(unauthorized.headers.get("link")).toContain(`<${replacement}>; rel="deprecation"`);
    }

    const mcp = await retiredErrorFor(operation);
    expect(mcp?.code).toBe("retired");
    expect(mcp?.status).toBe(410);
    expect(mcp?.options.headers?.Link).toBe(response.headers.get("link"));
    // Outside the windows (after the first, before the next) it answers normally.
    expect(await retiredErrorFor(operation, new Date(now + dayMs))).toBeUndefined();
    expect((await retiredErrorFor(operation, new Date(later.start.getTime() + 1000)))?.code).toBe(
      "retired",
    );
    expect(await retiredErrorFor(operation, later.end)).toBeUndefined();
  });

  it("answers 410 retired after its sunset, and as before once restored", async () => {
    const token = await (await createPartner()).token();
    const announced = new Date(Date.now() - 8 * 30 * dayMs);
    const sunset = new Date(Date.now() - dayMs);
    await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [],
      now: announced,
    });

    const retired = await listCategories(token);
    expect(retired.status).toBe(410);
    expect((await retired.json()).error).toMatchObject({
      code: "retired",
      message: expect.stringContaining("was retired on"),
    });
    expect(retired.headers.get("link")).toContain(`<${replacement}>; rel="deprecation"`);
    expect((await retiredErrorFor(operation))?.code).toBe("retired");
    expect((await listLifecycles(new Date()))[0]).toMatchObject({ state: "retired" });

    expect(await restoreEndpoint(operation)).toEqual({ operationId: operation, restored: true });
    const restored = await listCategories(token);
    expect(restored.status).toBe(200);
    expect(restored.headers.get("deprecation")).toBeNull();
    expect(restored.headers.get("link")).toBeNull();
    expect(await retiredErrorFor(operation)).toBeUndefined();
    expect(await restoreEndpoint(operation)).toEqual({ operationId: operation, restored: false });
  });

  it("is seen by a process that did not write it within a second", async () => {
    const token = await (await createPartner()).token();
    expect((await listCategories(token)).status).toBe(200);
    // Written the way another instance's CLI would: straight into the table, this process's snapshot untouched.
    const written = Date.now();
    await db().endpointLifecycle.create({
      data: {
        operationId: operation,
        deprecatedAt: new Date(written - 200 * dayMs),
        sunsetAt: new Date(written - 1000),
        replacement,
        changelogAnchor: "deprecate-get-api-v1-categories",
      },
    });
    let status = 200;
    while (status !== 410 && Date.now() - written < 3000) {
      status = (await listCategories(token)).status;
      if (status !== 410) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(410);
    expect(Date.now() - written).toBeLessThanOrEqual(lifecycleRefreshMs + 500);
  });
});

describe("deprecation input", () => {
  it("refuses an unknown operation, a sunset under 6 months away and a brownout outside the notice period", async () => {
    const now = new Date();
    const sunset = monthsFrom(now, 7);
    await expect(
      deprecateEndpoint({
        operationId: "GET /api/v1/nothing",
        sunset,
        replacement,
        brownouts: [],
        now,
      }),
    ).rejects.toThrow(/unknown operation.*GET \/api\/v1\/nothing/);
    await expect(
      deprecateEndpoint({
        operationId: "get /api/v1/categories",
        sunset,
        replacement,
        brownouts: [],
        now,
      }),
    ).rejects.toThrow(/unknown operation/);
    await expect(
      deprecateEndpoint({
        operationId: operation,
        sunset: monthsFrom(now, 5),
        replacement,
        brownouts: [],
        now,
      }),
    ).rejects.toThrow(/at least 6 months/);
    await expect(
      deprecateEndpoint({
        operationId: operation,
        sunset,
        replacement: "not a url",
        brownouts: [],
        now,
      }),
    ).rejects.toThrow(/--replacement/);
    const afterSunset = {
      start: new Date(sunset.getTime() + dayMs),
      end: new Date(sunset.getTime() + dayMs + 1000),
    };
    await expect(
      deprecateEndpoint({
        operationId: operation,
        sunset,
        replacement,
        brownouts: [afterSunset],
        now,
      }),
    ).rejects.toThrow(/between now and the sunset/);
    const long = {
      start: new Date(now.getTime() + dayMs),
      end: new Date(now.getTime() + 3 * dayMs),
    };
    await expect(
      deprecateEndpoint({ operationId: operation, sunset, replacement, brownouts: [long], now }),
    ).rejects.toThrow(/longer than 24 hours/);
    expect(await db().endpointLifecycle.count()).toBe(0);
  });
});

describe("changing a deprecation", () => {
  it("keeps the first announcement (Deprecation, and the 6 months counted from it) when brownouts or dates change", async () => {
    const token = await (await createPartner()).token();
    const announced = second(new Date(Date.now() - 90 * dayMs));
    const sunset = monthsFrom(announced, 6);
    await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [],
      now: announced,
    });
    // Three months later the operator adds a brownout: the sunset is under 6 months from now, but not from the announcement.
    const now = new Date();
    const brownout = {
      start: new Date(now.getTime() + dayMs),
      end: new Date(now.getTime() + dayMs + 60 * 60 * 1000),
    };
    const { lifecycle } = await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [brownout],
      now,
    });
    expect(lifecycle.deprecatedAt).toEqual(announced);
    expect(lifecycle.brownouts).toEqual([brownout]);
    const response = await listCategories(token);
    expect(response.headers.get("deprecation")).toBe(`@${announced.getTime() / 1000}`);
    // Moving the sunset earlier than 6 months after the announcement is still refused.
    await expect(
      deprecateEndpoint({
        operationId: operation,
        sunset: monthsFrom(announced, 5),
        replacement,
        brownouts: [],
        now,
      }),
    ).rejects.toThrow(/6 months after the first announcement/);
  });
});

describe("deprecation notices", () => {
  it("emails, through the outbox, the contact of every client that called the operation in the last 90 days, once", async () => {
    const recent = await createPartner();
    const contact = `api-team-${Date.now()}@partner.example`;
    await db().apiClient.update({
      where: { id: recent.client.id },
      data: { contactEmail: contact },
    });
    // A portal client: its owner is the contact.
    const owner = (await createPerson()).person;
    const portal = await createPartner();
    await db().apiClient.update({ where: { id: portal.client.id }, data: { ownerId: owner.id } });
    const stale = await createPartner();
    await db().apiClient.update({
      where: { id: stale.client.id },
      data: { contactEmail: `stale-${Date.now()}@partner.example` },
    });
    const otherOperation = await createPartner();
    await db().apiClient.update({
      where: { id: otherOperation.client.id },
      data: { contactEmail: `other-${Date.now()}@partner.example` },
    });

    // Real calls record (client, operation, day) in memory; the flush writes them in one upsert.
    expect((await listCategories(await recent.token())).status).toBe(200);
    expect((await listCategories(await recent.token())).status).toBe(200);
    expect((await listCategories(await portal.token())).status).toBe(200);
    expect(
      (
        await callRoute(products as never, {
          path: "/products?per_page=1",
          token: await otherOperation.token(),
        })
      ).status,
    ).toBe(200);
    await flushCalls();
    const today = new Date(new Date().toISOString().slice(0, 10));
    expect(
      await db().clientOperationCall.findMany({ where: { clientId: recent.client.id } }),
    ).toEqual([{ clientId: recent.client.id, operationId: operation, lastCalledOn: today }]);
    await db().clientOperationCall.create({
      data: {
        clientId: stale.client.id,
        operationId: operation,
        lastCalledOn: new Date(Date.now() - 91 * dayMs),
      },
    });

    const now = new Date();
    const sunset = new Date("2027-09-30T00:00:00Z");
    const brownout = {
      start: new Date("2027-08-01T14:00:00Z"),
      end: new Date("2027-08-01T15:00:00Z"),
    };
    const { notified } = await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [brownout],
      now,
    });
    expect(notified).toEqual([contact, owner.email].sort());

    const emails = await db().emailMessage.findMany({
      where: { template: "endpoint-deprecated" },
      orderBy: { to: "asc" },
    });
    expect(emails.map((email) => email.to).sort()).toEqual([contact, owner.email].sort());
    const toPartner = emails.find((email) => email.to === contact)!;
    expect(toPartner.status).toBe("pending");
    expect(toPartner.props).toEqual({
      operationId: operation,
      clients: [recent.client.name],
      sunset: "2027-09-30",
      replacement,
      brownouts: ["2027-08-01T14:00:00.000Z to 2027-08-01T15:00:00.000Z"],
      changelogUrl: `${env().PUBLIC_URL}/changelog#deprecate-get-api-v1-categories`,
    });
    const rendered = await renderEmail("endpoint-deprecated", toPartner.props);
    expect(rendered.subject).toBe(
      "GET /api/v1/categories is deprecated: it stops answering on 2027-09-30",
    );
    expect(rendered.text).toContain(replacement);
    expect(rendered.text).toContain("/changelog#deprecate-get-api-v1-categories");

    // Running the same command again does not repeat the notice.
    await deprecateEndpoint({
      operationId: operation,
      sunset,
      replacement,
      brownouts: [brownout],
      now: new Date(),
    });
    expect(await db().emailMessage.count({ where: { template: "endpoint-deprecated" } })).toBe(2);
  });
});

describe("OpenAPI document", () => {
  it("marks the deprecated operation with deprecated: true and its dates, and only it", async () => {
    const announced = new Date("2026-11-22T10:00:00Z");
    await deprecateEndpoint({
      operationId: operation,
      sunset: new Date("2027-06-01T00:00:00Z"),
      replacement,
      brownouts: [],
      now: announced,
    });
    const document = await (await openapi()).json();
    // The newest entry of the change history.
    expect(document.info.version).toBe(changes[0].version);
    const deprecated = document.paths["/categories"].get;
    expect(deprecated.deprecated).toBe(true);
    expect(deprecated.description).toContain("Deprecated on 2026-11-22; sunset on 2027-06-01");
    expect(deprecated.description).toContain(replacement);
    expect(document.paths["/products"].get.deprecated).toBeUndefined();
  });
});
