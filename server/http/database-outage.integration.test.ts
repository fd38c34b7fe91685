/**
 * A database outage answers 503 with Retry-After, and the service recovers by itself when the
 * database is back. The database is reached through a TCP proxy this test can cut.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as tokenPost } from "@/app/oauth/token/route";
import { databaseProxy } from "../testing/db-proxy";
import { operationHandler } from "@/server/api/rest-router";

const products = operationHandler("GET /api/v1/products");

const proxy = databaseProxy();
let token: string;

beforeAll(async () => {
  await proxy.use();
  const { createPartner } = await import("../../prisma/factories");
  token = await (await createPartner()).token();
});

afterAll(() => proxy.cut());

const search = () => products(new Request("http://localhost:3000/api/v1/products?per_page=1", { headers: { authorization: `Bearer ${token}` } }));

describe("database outage", () => {
  it("503 with Retry-After while the database is unreachable, then recovers", async () => {
    expect((await search()).status).toBe(200);
    await proxy.cut();
    const down = await search();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect((await down.json()).error.code).toBe("unavailable");
    const token503 = await tokenPost(new Request("http://localhost:3000/oauth/token", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=cli_x&client_secret=y",
    }));
    expect(token503.status).toBe(503);
    expect(token503.headers.get("retry-after")).toBe("5");
    await proxy.open();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      recovered = (await search()).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(recovered).toBe(200);
  }, 30_000);
});
