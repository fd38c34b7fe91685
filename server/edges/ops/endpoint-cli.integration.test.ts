/** `ops endpoint:deprecate | restore | list` as an operator runs them: a real process on the test database, printing JSON. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createPartner } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { flushCalls } from "../rest/call-log";
import { callRoute } from "../../testing/rest";
import { operationHandler } from "../rest/rest-router";

const categories = operationHandler("GET /api/v1/categories");

const run = promisify(execFile);
const root = path.resolve(__dirname, "../../..");
const ops = async (...args: string[]) => {
  const { stdout } = await run(
    process.execPath,
    [
      // node with tsx's loader, as `npm start` runs: one process (tsx's CLI would start a second).
      "--import",
      "tsx",
      path.join(root, "server", "edges", "ops", "cli.ts"),
      ...args,
      "--json",
    ],
    { cwd: root, env: process.env },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!);
};

const replacement = "https://developers.example/changes/categories-v2";

afterAll(() => db().endpointLifecycle.deleteMany());

describe("npm run ops -- endpoint:*", () => {
  it("deprecates with brownouts (notifying the recent caller's contact), lists, then restores; this process follows each within a second", async () => {
    const created = await ops(
      "client:create",
      "--name",
      "Notified app",
      "--scopes",
      "catalog:read",
      "--contact",
      "Dev-Team@Partner.example",
    );
    expect(created.contact).toBe("dev-team@partner.example");
    const partner = await createPartner();
    await db().apiClient.update({
      where: { id: partner.client.id },
      data: { contactEmail: "caller@partner.example" },
    });
    const token = await partner.token();
    expect((await callRoute(categories as never, { path: "/categories", token })).status).toBe(200);
    await flushCalls();

    const deprecated = await ops(
      "endpoint:deprecate",
      "GET /api/v1/categories",
      "--sunset",
      "2030-06-01",
      "--replacement",
      replacement,
      "--brownout",
      "2030-03-01T14:00:00Z/2030-03-01T15:00:00Z",
      "--brownout",
      "2030-04-01T14:00:00+02:00/2030-04-01T16:00:00+02:00",
    );
    expect(deprecated).toMatchObject({
      operation_id: "GET /api/v1/categories",
      sunset: "2030-06-01T00:00:00.000Z",
      replacement,
      brownouts: [
        { start: "2030-03-01T14:00:00.000Z", end: "2030-03-01T15:00:00.000Z" },
        { start: "2030-04-01T12:00:00.000Z", end: "2030-04-01T14:00:00.000Z" },
      ],
      changelog: `${env().PUBLIC_URL}/changelog#deprecate-get-api-v1-categories`,
      notified: ["caller@partner.example"],
    });
    const done = Date.now();
    let response = await callRoute(categories as never, { path: "/categories", token });
    while (!response.headers.get("sunset") && Date.now() - done < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await callRoute(categories as never, { path: "/categories", token });
    }
    expect(response.headers.get("sunset")).toBe("Sat, 01 Jun 2030 00:00:00 GMT");
    expect(response.headers.get("deprecation")).toBe(
      `@${Math.floor(new Date(deprecated.deprecated_at).getTime() / 1000)}`,
    );
    expect(
      await db().emailMessage.count({
        where: { template: "endpoint-deprecated", to: "caller@partner.example" },
      }),
    ).toBe(1);

    const { notified: _notified, ...described } = deprecated;
    expect(await ops("endpoint:list")).toEqual({
      endpoints: [{ ...described, state: "deprecated" }],
    });

    expect(await ops("endpoint:restore", "GET /api/v1/categories")).toEqual({
      operation_id: "GET /api/v1/categories",
      restored: true,
    });
    const restored = Date.now();
    response = await callRoute(categories as never, { path: "/categories", token });
    while (response.headers.get("sunset") && Date.now() - restored < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await callRoute(categories as never, { path: "/categories", token });
    }
    expect(response.headers.get("sunset")).toBeNull();
    expect(await ops("endpoint:list")).toEqual({ endpoints: [] });
  }, 120_000);

  it("refuses an unknown operation id, a bad date and a malformed brownout with a clear message", async () => {
    await expect(
      ops(
        "endpoint:deprecate",
        "GET /api/v1/unknown",
        "--sunset",
        "2030-06-01",
        "--replacement",
        replacement,
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('unknown operation "GET /api/v1/unknown"'),
    });
    await expect(
      ops(
        "endpoint:deprecate",
        "GET /api/v1/categories",
        "--sunset",
        "June 2030",
        "--replacement",
        replacement,
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("--sunset must be a date") });
    await expect(
      ops(
        "endpoint:deprecate",
        "GET /api/v1/categories",
        "--sunset",
        "2030-06-01",
        "--replacement",
        replacement,
        "--brownout",
        "2030-03-01T14:00:00Z",
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("--brownout must be START/END") });
    await expect(ops("endpoint:restore", "DELETE /api/v1/categories")).rejects.toMatchObject({
      stderr: expect.stringContaining("unknown operation"),
    });
    expect(await db().endpointLifecycle.count()).toBe(0);
  }, 120_000);
});
