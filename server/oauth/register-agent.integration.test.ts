/** POST /oauth/register/agent (RFC 7591): validation, what is stored, and production's initial access token. */
import { afterEach, describe, expect, it } from "vitest";
import { POST as register } from "@/app/oauth/register/agent/route";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { socketAddressHeader } from "../platform/http/client-ip";
import { createRegistrationToken } from "../edges/ops/account-commands";
import { authorize, authorizeParams, pkcePair } from "../testing/oauth";
import { useProductionEnv } from "../testing/production-env";

let caller = 0;
/** Each registration from its own address: the per-address limit (10 a minute) is tested in auth-limits.integration.test.ts. */
const post = (body: unknown, headers: Record<string, string> = {}) =>
  register(
    new Request("http://localhost:3000/oauth/register/agent", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [socketAddressHeader]: `203.0.113.${++caller}`,
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

const valid = {
  client_name: "Shopping Helper",
  redirect_uris: ["https://helper.example/callback", "http://127.0.0.1:33418/cb"],
};

afterEach(() => {
  delete process.env.SERVICE_ENV;
  delete process.env.APP_SECRET;
  resetEnv();
});

describe("POST /oauth/register/agent", () => {
  it("registers a public client and answers with its metadata (201)", async () => {
    const response = await post({
      ...valid,
      grant_types: ["authorization_code", "refresh_token"],
      logo_uri: "https://helper.example/logo.png",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({
      client_id: expect.stringMatching(/^cli_test_/),
      client_id_issued_at: expect.any(Number),
      client_name: "Shopping Helper",
      redirect_uris: valid.redirect_uris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      logo_uri: "https://helper.example/logo.png",
    });
    expect(body.scope.split(" ")).toContain("purchase:write");
    expect(body.client_secret).toBeUndefined();
    const client = await db().apiClient.findUniqueOrThrow({ where: { id: body.client_id } });
    expect(client).toMatchObject({ kind: "agent", secretHash: null });
    // The new agent can start linking straight away.
    const started = await authorize(
      authorizeParams(client.id, valid.redirect_uris[0], pkcePair().challenge, {
        scope: "profile:read purchase:write",
      }),
    );
    expect(new URL(started.headers.get("location")!, "http://x").pathname).toBe("/oauth/consent");
  });

  it.each([
    ["javascript:", ["javascript:alert(1)"]],
    ["http to a non-loopback host", ["http://helper.example/cb"]],
    ["a wildcard", ["https://*.helper.example/cb"]],
    ["a fragment", ["https://helper.example/cb#x"]],
    ["no redirect URI", []],
  ])("refuses redirect_uris with %s: invalid_redirect_uri", async (_case, uris) => {
    const response = await post({ ...valid, redirect_uris: uris });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_redirect_uri");
  });

  it.each([
    ["grant_types password", { grant_types: ["password"] }],
    ["grant_types client_credentials", { grant_types: ["client_credentials"] }],
    ["an admin scope", { scope: "purchase:write admin" }],
    ["a client secret method", { token_endpoint_auth_method: "client_secret_basic" }],
    ["a 1 KB client_name", { client_name: "x".repeat(1_000) }],
    ["no client_name", { client_name: undefined }],
    [
      "an http logo_uri (metadata address)",
      { logo_uri: "http://169.254.169.254/latest/meta-data" },
    ],
    ["response_types token", { response_types: ["token"] }],
  ])("refuses %s: invalid_client_metadata", async (_case, overrides) => {
    const response = await post({ ...valid, ...overrides });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_client_metadata");
  });

  it("refuses metadata over 16 KB (a 100 KB client_name) with 413 invalid_client_metadata", async () => {
    const response = await post({ ...valid, client_name: "x".repeat(100_000) });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe("invalid_client_metadata");
  });

  it("refuses a body that is not JSON", async () => {
    expect((await (await post("client_name=x")).json()).error).toBe("invalid_client_metadata");
    const form = await register(
      new Request("http://localhost:3000/oauth/register/agent", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "a=b",
      }),
    );
    expect((await form.json()).error).toBe("invalid_client_metadata");
  });

  it("ignores metadata it does not support (jwks_uri is never fetched or stored)", async () => {
    const body = await (await post({ ...valid, jwks_uri: "file:///etc/passwd" })).json();
    expect(body.jwks_uri).toBeUndefined();
    expect(
      JSON.stringify(await db().apiClient.findUniqueOrThrow({ where: { id: body.client_id } })),
    ).not.toContain("passwd");
  });

  it("in production needs an initial access token, each good for its number of uses", async () => {
    useProductionEnv({ APP_SECRET: "x".repeat(40) });
    const https = { ...valid, redirect_uris: ["https://helper.example/callback"] };
    const anonymous = await post(https);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toBe("invalid_token");
    expect((await post(https, { authorization: "Bearer reg_wrong" })).status).toBe(401);
    const { registration_token } = await createRegistrationToken({ uses: "1" });
    const first = await post(https, { authorization: `Bearer ${registration_token}` });
    expect(first.status).toBe(201);
    expect((await first.json()).client_id).toMatch(/^cli_live_/);
    expect((await post(https, { authorization: `Bearer ${registration_token}` })).status).toBe(401);
    // Loopback http is a sandbox convenience only.
    const { registration_token: second } = await createRegistrationToken({});
    expect((await (await post(valid, { authorization: `Bearer ${second}` })).json()).error).toBe(
      "invalid_redirect_uri",
    );
  });
});
