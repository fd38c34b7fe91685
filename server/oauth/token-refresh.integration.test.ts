/** POST /oauth/token with grant_type=refresh_token: rotation, reuse detection, narrowing, disconnect, client revocation. */
import { describe, expect, it } from "vitest";
import { createLinkingPartner } from "../../prisma/factories";
import { db } from "../platform/db";
import { revokeClient } from "../edges/ops/commands";
import { shopperCaller } from "../testing/callers";
import { basic, callApi, linkedPerson, token } from "../testing/oauth";
import { sha256 } from "../core/ids";
import { captureLogLines } from "../testing/log-capture";
import { listConnectedApps } from "./grants";
import { operationHandler } from "@/server/edges/rest/rest-router";

const me = operationHandler("GET /api/v1/me");
const address = operationHandler("GET /api/v1/me/shipping-address");

const call = (route: typeof me, accessToken: string) => callApi(route, accessToken);
const linkedTokens = linkedPerson;

describe("refresh_token", () => {
  it("returns a new access token and a new refresh token; the old refresh token is spent", async () => {
    const { tokens, refresh } = await linkedTokens();
    const response = await refresh(tokens.refresh_token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const next = await response.json();
    expect(next).toEqual({
      token_type: "Bearer",
      access_token: expect.stringMatching(/^sat_/),
      refresh_token: expect.stringMatching(/^srt_/),
      expires_in: 3600,
      scope: "profile:read address:read",
    });
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(me, next.access_token)).status).toBe(200);
    const stored = await db().refreshToken.findUniqueOrThrow({
      where: { tokenHash: sha256(next.refresh_token) },
    });
    const days = (stored.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("a used refresh token presented again revokes the whole chain, logs it as a security event and the app is no longer connected (B2-15)", async () => {
    const log = captureLogLines();
    const { tokens, refresh, person, client } = await linkedTokens();
    const second = await (await refresh(tokens.refresh_token)).json();
    expect(
      (await listConnectedApps(db(), { personId: person.id, now: new Date() })).map(
        (app) => app.client_id,
      ),
    ).toContain(client.id);
    const reuse = await refresh(tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe("invalid_grant");
    expect((await call(me, tokens.access_token)).status).toBe(401);
    expect((await call(me, second.access_token)).status).toBe(401);
    expect((await (await refresh(second.refresh_token)).json()).error).toBe("invalid_grant");
    expect(
      await log.find(
        (line) => line.msg === "security: grant revoked" && line.reason === "refresh_token_reused",
      ),
    ).toBeDefined();
    expect(
      (await listConnectedApps(db(), { personId: person.id, now: new Date() })).map(
        (app) => app.client_id,
      ),
    ).not.toContain(client.id);
  });

  it("two concurrent refreshes with the same token: at most one answer, and no refresh token stays valid (strict rotation)", async () => {
    const { tokens, refresh } = await linkedTokens();
    const responses = await Promise.all([
      refresh(tokens.refresh_token),
      refresh(tokens.refresh_token),
    ]);
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses[1]).toBe(400);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const body of bodies.filter((b) => b.refresh_token)) {
      expect((await refresh(body.refresh_token)).status).toBe(400);
      expect((await call(me, body.access_token)).status).toBe(401);
    }
  });

  it("scope may narrow (the new refresh token keeps the full grant) but never widen", async () => {
    const { tokens, refresh } = await linkedTokens();
    const narrow = await (await refresh(tokens.refresh_token, { scope: "profile:read" })).json();
    expect(narrow.scope).toBe("profile:read");
    expect((await call(address, narrow.access_token)).status).toBe(403);
    const wider = await refresh(narrow.refresh_token, { scope: "profile:read orders:read" });
    expect(wider.status).toBe(400);
    expect((await wider.json()).error).toBe("invalid_scope");
    // The refused request did not spend the refresh token; the full scope is still available.
    const full = await (await refresh(narrow.refresh_token)).json();
    expect(full.scope).toBe("profile:read address:read");
  });

  it("purchase:write the person did not tick can never be obtained by refresh", async () => {
    const { tokens, refresh } = await linkedTokens("profile:read");
    const response = await refresh(tokens.refresh_token, { scope: "profile:read purchase:write" });
    expect((await response.json()).error).toBe("invalid_scope");
  });

  it("a refresh token presented by another client is invalid_grant and revokes nothing", async () => {
    const { tokens } = await linkedTokens();
    const other = await createLinkingPartner();
    const response = await token(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { authorization: basic(other.client.id, other.secret) },
    );
    expect((await response.json()).error).toBe("invalid_grant");
    expect((await call(me, tokens.access_token)).status).toBe(200);
  });

  it("an expired refresh token is invalid_grant", async () => {
    const { tokens, refresh } = await linkedTokens();
    await db().refreshToken.update({
      where: { tokenHash: sha256(tokens.refresh_token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await (await refresh(tokens.refresh_token)).json()).error).toBe("invalid_grant");
  });

  it("after the person disconnects the app: the next request is 401 and refresh is invalid_grant", async () => {
    const { person, client, tokens, refresh } = await linkedTokens();
    const shopper = shopperCaller(person.id);
    expect((await shopper.account.connectedApps()).map((app) => app.client_id)).toEqual([
      client.id,
    ]);
    await shopper.account.disconnectApp({ client_id: client.id });
    expect((await call(me, tokens.access_token)).status).toBe(401);
    expect((await (await refresh(tokens.refresh_token)).json()).error).toBe("invalid_grant");
    expect(await shopper.account.connectedApps()).toEqual([]);
  });

  it("after the operator revokes the client: its linked tokens are 401 and refresh is invalid_client", async () => {
    const { client, tokens, refresh } = await linkedTokens();
    await revokeClient(client.id);
    expect((await call(me, tokens.access_token)).status).toBe(401);
    const response = await refresh(tokens.refresh_token);
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("invalid_client");
  });

  it("refresh tokens are stored only as hashes", async () => {
    const { tokens } = await linkedTokens();
    const rows = await db().refreshToken.findMany();
    expect(JSON.stringify(rows)).not.toContain(tokens.refresh_token);
  });
});
