/** The ops CLI as an operator runs it: a real process on the same database, printing JSON. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createAgent, createStore } from "../../../prisma/factories";
import { sha256 } from "../../core/ids";
import { db } from "../../platform/db";

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

describe("npm run ops", () => {
  it("client:create prints the secret once and stores only its SHA-256", async () => {
    const created = await ops(
      "client:create",
      "--name",
      "Acme Assistant",
      "--scopes",
      "catalog:read checkout:write",
      "--redirect-uri",
      "https://acme.example/cb",
      "--linking",
    );
    expect(created).toMatchObject({
      client_id: expect.stringMatching(/^cli_/),
      client_secret: expect.stringMatching(/^sec_/),
      scopes: ["catalog:read", "checkout:write"],
      linking: true,
    });
    const stored = await db().apiClient.findUniqueOrThrow({ where: { id: created.client_id } });
    expect(stored.secretHash).toBe(sha256(created.client_secret));
    expect(JSON.stringify(stored)).not.toContain(created.client_secret);
    expect(stored.redirectUris).toEqual(["https://acme.example/cb"]);
  }, 30_000);

  it("client:create refuses an unknown scope with a clear message", async () => {
    await expect(
      ops("client:create", "--name", "X", "--scopes", "catalog:read admin"),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("scopes must be among") });
  }, 30_000);

  it("client:revoke and store:set", async () => {
    const created = await ops("client:create", "--name", "Revoked", "--scopes", "catalog:read");
    expect(await ops("client:revoke", created.client_id)).toMatchObject({
      client_id: created.client_id,
      revoked: true,
    });
    const store = await createStore();
    expect(await ops("store:set", store.slug, "--agent-checkout", "direct")).toEqual({
      slug: store.slug,
      agent_checkout: "direct",
    });
    expect((await db().store.findUniqueOrThrow({ where: { id: store.id } })).agentCheckout).toBe(
      "direct",
    );
  }, 30_000);

  it("client:set --purchases on|off switches assistant purchases for one agent", async () => {
    const agent = await createAgent();
    expect(await ops("client:set", agent.id, "--purchases", "off")).toEqual({
      client_id: agent.id,
      kind: "agent",
      purchases: "off",
    });
    expect(
      (await db().apiClient.findUniqueOrThrow({ where: { id: agent.id } })).purchasesEnabled,
    ).toBe(false);
    expect(await ops("client:set", agent.id, "--purchases", "on")).toMatchObject({
      purchases: "on",
    });
    await expect(ops("client:set", agent.id, "--purchases", "maybe")).rejects.toMatchObject({
      stderr: expect.stringContaining("--purchases must be on or off"),
    });
  }, 30_000);
});
