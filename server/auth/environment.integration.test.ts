/** Sandbox and production credentials are separate: a client of the other environment is refused everywhere. */
import { describe, expect, it } from "vitest";
import { createPartner } from "../../prisma/factories";
import { db } from "../platform/db";
import { basic, token } from "../testing/oauth";
import { operationHandler } from "@/server/edges/rest/rest-router";

const products = operationHandler("GET /api/v1/products");

describe("service environments", () => {
  it("a production client and its tokens are refused by a sandbox deployment", async () => {
    const { client, secret, token: issue } = await createPartner();
    const accessToken = await issue();
    const search = () =>
      products(
        new Request("http://localhost:3000/api/v1/products?per_page=1", {
          headers: { authorization: `Bearer ${accessToken}` },
        }),
      );
    expect((await search()).status).toBe(200);
    await db().apiClient.update({ where: { id: client.id }, data: { environment: "production" } });
    expect((await search()).status).toBe(401);
    expect(
      (
        await token(
          { grant_type: "client_credentials" },
          { authorization: basic(client.id, secret) },
        )
      ).status,
    ).toBe(401);
  });
});
