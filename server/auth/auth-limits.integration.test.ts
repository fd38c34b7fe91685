/**
 * Limits on the doors that need no token (Redis when REDIS_URL is set, as in CI; memory otherwise):
 * per address at /oauth/token, /oauth/revoke, /oauth/register/agent, sign-in, sign-up and
 * forgot-password; per client at /oauth/token; failed authentication per address and, for
 * passwords, per (email, address) with a looser per-email cap. The address comes from the
 * header `npm start` sets from the socket.
 */
import { describe, expect, it } from "vitest";
import { POST as tokenPost } from "@/app/oauth/token/route";
import { POST as revokePost } from "@/app/oauth/revoke/route";
import { POST as registerPost } from "@/app/oauth/register/agent/route";
import { createPartner, createPerson } from "../../prisma/factories";
import { socketAddressHeader } from "../platform/http/client-ip";
import { visitorCaller } from "../testing/callers";
import { failureOf } from "../testing/oauth";
import { admit, authLimits, limitLinkUse, recordFailure } from "./auth-limits";
import { signInWithPassword } from "./next-auth";

let next = 0;
/** A fresh client address for each test, so tests do not share counts. */
const freshIp = () => `198.51.100.${++next}`;
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

const post = (
  route: (request: Request) => Promise<Response>,
  path: string,
  ip: string,
  body: string,
  headers: Record<string, string> = {},
) =>
  route(
    new Request(`http://localhost:3000${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        [socketAddressHeader]: ip,
        ...headers,
      },
      body,
    }),
  );

const expectOAuth429 = async (response: Response) => {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers.get("cache-control")).toBe("no-store");
  // The policies and the spent window, as every 429 here publishes them (RELIABILITY rule 10, C2).
  expect(response.headers.get("ratelimit-policy")).toMatch(/^"[0-9a-z-]+";q=\d+;w=\d+/);
  const spent = response.headers.get("ratelimit")?.match(/;r=0;t=(\d+)/);
  expect(spent).not.toBeNull();
  expect(retryAfter).toBeGreaterThanOrEqual(Number(spent?.[1]));
  expect((await response.json()).error).toBe("temporarily_unavailable");
};

describe("/oauth/token", () => {
  it("per address: the 301st request in a minute is 429 temporarily_unavailable; another address is served", async () => {
    const ip = freshIp();
    for (let i = 0; i < 300; i++)
      expect((await post(tokenPost, "/oauth/token", ip, "grant_type=nope")).status).toBe(400);
    await expectOAuth429(await post(tokenPost, "/oauth/token", ip, "grant_type=nope"));
    expect((await post(tokenPost, "/oauth/token", freshIp(), "grant_type=nope")).status).toBe(400);
  }, 60_000);

  it("per client: the 121st token in a minute is refused, from any address; another client is served", async () => {
    const { client, secret } = await createPartner();
    const other = await createPartner();
    for (let i = 0; i < 120; i++) {
      const response = await post(
        tokenPost,
        "/oauth/token",
        freshIp(),
        "grant_type=client_credentials",
        { authorization: basic(client.id, secret) },
      );
      expect(response.status).toBe(200);
    }
    await expectOAuth429(
      await post(tokenPost, "/oauth/token", freshIp(), "grant_type=client_credentials", {
        authorization: basic(client.id, secret),
      }),
    );
    expect(
      (
        await post(tokenPost, "/oauth/token", freshIp(), "grant_type=client_credentials", {
          authorization: basic(other.client.id, other.secret),
        })
      ).status,
    ).toBe(200);
  }, 60_000);

  it("failed client authentication: after 50 wrong secrets from one address even the right one is refused there, not elsewhere", async () => {
    const { client, secret } = await createPartner();
    const ip = freshIp();
    for (let i = 0; i < 50; i++) {
      expect(
        (
          await post(tokenPost, "/oauth/token", ip, "grant_type=client_credentials", {
            authorization: basic(client.id, "wrong"),
          })
        ).status,
      ).toBe(401);
    }
    await expectOAuth429(
      await post(tokenPost, "/oauth/token", ip, "grant_type=client_credentials", {
        authorization: basic(client.id, secret),
      }),
    );
    await expectOAuth429(
      await post(revokePost, "/oauth/revoke", ip, "token=x", {
        authorization: basic(client.id, secret),
      }),
    );
    expect(
      (
        await post(tokenPost, "/oauth/token", freshIp(), "grant_type=client_credentials", {
          authorization: basic(client.id, secret),
        })
      ).status,
    ).toBe(200);
  }, 60_000);
});

describe("/oauth/revoke and /oauth/register/agent", () => {
  it("revoke: the 121st request in a minute from one address is 429", async () => {
    const { client, secret } = await createPartner();
    const ip = freshIp();
    for (let i = 0; i < 120; i++)
      expect(
        (
          await post(revokePost, "/oauth/revoke", ip, "token=x", {
            authorization: basic(client.id, secret),
          })
        ).status,
      ).toBe(200);
    await expectOAuth429(
      await post(revokePost, "/oauth/revoke", ip, "token=x", {
        authorization: basic(client.id, secret),
      }),
    );
  }, 60_000);

  it("register: the 11th registration in a minute from one address is 429", async () => {
    const ip = freshIp();
    const register = () =>
      post(
        registerPost,
        "/oauth/register/agent",
        ip,
        JSON.stringify({ client_name: "A", redirect_uris: ["https://a.example/cb"] }),
        { "content-type": "application/json" },
      );
    for (let i = 0; i < 10; i++) expect((await register()).status).toBe(201);
    await expectOAuth429(await register());
  }, 60_000);
});

describe("sign-in", () => {
  it("ten wrong passwords for one email from one address stop that address for that email, before any hashing; elsewhere the person still signs in", async () => {
    const { person, password } = await createPerson();
    const attacker = new Headers({ [socketAddressHeader]: freshIp() });
    for (let i = 0; i < 10; i++)
      expect(await signInWithPassword(person.email, "not the password", attacker)).toBeNull();
    const started = performance.now();
    await expect(signInWithPassword(person.email, password, attacker)).rejects.toThrow(
      "TooManyAttempts",
    );
    expect(performance.now() - started).toBeLessThan(40); // no 32 MiB scrypt ran
    expect(
      await signInWithPassword(
        person.email,
        password,
        new Headers({ [socketAddressHeader]: freshIp() }),
      ),
    ).toMatchObject({ id: person.id });
  }, 60_000);

  it("one address trying many emails (password spraying): the 31st attempt in a minute is refused", async () => {
    const sprayer = new Headers({ [socketAddressHeader]: freshIp() });
    for (let i = 0; i < 30; i++)
      expect(
        await signInWithPassword(`nobody-${i}@example.ca`, "Password123!", sprayer),
      ).toBeNull();
    await expect(
      signInWithPassword("nobody-31@example.ca", "Password123!", sprayer),
    ).rejects.toThrow("TooManyAttempts");
  }, 60_000);
});

describe("sign-up and forgot-password", () => {
  it.each([
    ["sign-up", authLimits.signUpPerIp],
    ["forgot-password", authLimits.emailLinksPerIp],
  ])("%s: the 21st request in an hour from one address is refused", async (_name, limit) => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) await admit(limit, ip);
    await expect(admit(limit, ip)).rejects.toMatchObject({
      code: "rate_limited",
      options: { retryAfter: expect.any(Number) },
    });
    await admit(limit, freshIp());
  });
});

describe("the pages that use an emailed link (confirm email, set a new password)", () => {
  const visitor = visitorCaller();
  const forgedReset = () =>
    visitor.shopperAuth
      .resetPassword({ token: "forged.token", password: "a new password 1" })
      .then(() => undefined);
  const forgedConfirm = () =>
    visitor.shopperAuth.confirmEmail({ token: "forged.token" }).then(() => undefined);
  const codeOf = async (ip: string, use: () => Promise<unknown>) =>
    (await failureOf(limitLinkUse(ip, use))).code;

  it("the 31st use in a minute from one address is refused before the token is looked at; another address goes on", async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++)
      expect(await codeOf(ip, i % 2 ? forgedReset : forgedConfirm)).toBe("invalid_link");
    const refused = await failureOf(limitLinkUse(ip, forgedReset));
    expect(refused).toMatchObject({
      code: "rate_limited",
      options: { retryAfter: expect.any(Number) },
    });
    expect(await codeOf(freshIp(), forgedReset)).toBe("invalid_link");
  });

  it("a forged token counts as a failed authentication of the address: with the address's failures spent (sign-in's count too), links are refused", async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect(await codeOf(ip, forgedConfirm)).toBe("invalid_link");
    // 30 more failures of that address elsewhere (wrong passwords, wrong client secrets) spend the 50 of the quarter hour.
    for (let i = 0; i < 30; i++) await recordFailure(authLimits.failuresPerIp, ip);
    expect(await codeOf(ip, forgedReset)).toBe("rate_limited");
    // One failure fewer and the address is still let through: the 20 forged tokens were counted once each.
    const other = freshIp();
    for (let i = 0; i < 20; i++) expect(await codeOf(other, forgedConfirm)).toBe("invalid_link");
    for (let i = 0; i < 29; i++) await recordFailure(authLimits.failuresPerIp, other);
    expect(await codeOf(other, forgedReset)).toBe("invalid_link");
  });
});
