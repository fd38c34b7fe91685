/** The developer portal: apply, approval (sandbox at once, production by the operator), secret shown once, rotation, redirect URIs. */
import { afterEach, describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { approveApplicationCommand } from "../edges/ops/account-commands";
import { shopperCaller as shopper } from "../testing/callers";
import { basic, failureOf as failure, token } from "../testing/oauth";
import { useProductionEnv } from "../testing/production-env";
const application = {
  name: "Closet Helper",
  contact_email: "dev@closet.example",
  redirect_uris: ["https://closet.example/cb"],
  wants_linking: true,
};

afterEach(() => {
  delete process.env.SERVICE_ENV;
  delete process.env.APP_SECRET;
  resetEnv();
});

describe("developer portal", () => {
  it("sandbox approves at once; the secret is shown once, works, and rotation kills the old one and its tokens", async () => {
    const { person } = await createPerson();
    const portal = shopper(person.id);
    const applied = await portal.developers.applyForClient(application);
    expect(applied).toMatchObject({
      status: "approved",
      environment: "sandbox",
      client: {
        client_id: expect.stringMatching(/^cli_test_/),
        has_secret: false,
        linking_enabled: true,
      },
    });
    expect(applied.client!.scopes).toEqual([
      "catalog:read",
      "checkout:write",
      "profile:read",
      "orders:read",
      "address:read",
      "alerts:write",
    ]);
    const first = await portal.developers.rotateSecret({ application_id: applied.application_id });
    expect(first).toMatchObject({
      client_secret: expect.stringMatching(/^sec_test_/),
      replaced_previous: false,
    });
    // Never shown again: the list carries no secret.
    expect(JSON.stringify(await portal.developers.myApplications())).not.toContain(
      first.client_secret,
    );
    const auth = { authorization: basic(first.client_id, first.client_secret) };
    const issued = await (await token({ grant_type: "client_credentials" }, auth)).json();
    expect(issued.scope).toBe("catalog:read checkout:write");
    const second = await portal.developers.rotateSecret({ application_id: applied.application_id });
    expect(second.replaced_previous).toBe(true);
    expect((await token({ grant_type: "client_credentials" }, auth)).status).toBe(401);
    expect(
      (await db().accessToken.findFirstOrThrow({ where: { clientId: first.client_id } })).revokedAt,
    ).toBeInstanceOf(Date);
    expect(
      (
        await token(
          { grant_type: "client_credentials" },
          { authorization: basic(second.client_id, second.client_secret) },
        )
      ).status,
    ).toBe(200);
  });

  it("production waits for the operator and issues live credentials", async () => {
    useProductionEnv({ APP_SECRET: "y".repeat(40) });
    const { person } = await createPerson();
    const applied = await shopper(person.id).developers.applyForClient({
      ...application,
      wants_linking: false,
    });
    expect(applied).toMatchObject({ status: "pending", client: null });
    expect(
      (
        await failure(
          shopper(person.id).developers.rotateSecret({ application_id: applied.application_id }),
        )
      ).code,
    ).toBe("not_found");
    const approved = await approveApplicationCommand(applied.application_id);
    expect(approved).toMatchObject({
      status: "approved",
      client_id: expect.stringMatching(/^cli_live_/),
      scopes: ["catalog:read", "checkout:write"],
      linking: false,
    });
    const secret = await shopper(person.id).developers.rotateSecret({
      application_id: applied.application_id,
    });
    expect(secret.client_secret).toMatch(/^sec_live_/);
    // A production client is refused by a sandbox deployment (same database or not).
    delete process.env.SERVICE_ENV;
    resetEnv();
    expect(
      (
        await token(
          { grant_type: "client_credentials" },
          { authorization: basic(secret.client_id, secret.client_secret) },
        )
      ).status,
    ).toBe(401);
  });

  it("another person's application is not found", async () => {
    const { person: owner } = await createPerson();
    const { person: stranger } = await createPerson();
    const applied = await shopper(owner.id).developers.applyForClient(application);
    expect(
      (
        await failure(
          shopper(stranger.id).developers.rotateSecret({ application_id: applied.application_id }),
        )
      ).code,
    ).toBe("not_found");
    expect(
      (
        await failure(
          shopper(stranger.id).developers.updateRedirectUris({
            application_id: applied.application_id,
            redirect_uris: ["https://evil.example/cb"],
          }),
        )
      ).code,
    ).toBe("not_found");
    expect(await shopper(stranger.id).developers.myApplications()).toEqual([]);
  });

  it("edits redirect URIs under the same rule as registration", async () => {
    const { person } = await createPerson();
    const applied = await shopper(person.id).developers.applyForClient(application);
    const updated = await shopper(person.id).developers.updateRedirectUris({
      application_id: applied.application_id,
      redirect_uris: ["https://closet.example/cb2", "http://localhost:5173/cb"],
    });
    expect(updated.redirect_uris).toEqual([
      "https://closet.example/cb2",
      "http://localhost:5173/cb",
    ]);
    expect(
      (await db().apiClient.findUniqueOrThrow({ where: { id: applied.client!.client_id } }))
        .redirectUris,
    ).toEqual(updated.redirect_uris);
    const refused = await failure(
      shopper(person.id).developers.updateRedirectUris({
        application_id: applied.application_id,
        redirect_uris: ["http://closet.example/cb"],
      }),
    );
    expect(refused.options.fields?.redirect_uris).toContain("https");
    const emptied = await failure(
      shopper(person.id).developers.updateRedirectUris({
        application_id: applied.application_id,
        redirect_uris: [],
      }),
    );
    expect(emptied.options.fields?.redirect_uris).toContain("at least one");
  });

  it("an unconfirmed account cannot apply", async () => {
    const { person } = await createPerson({ verified: false });
    expect((await failure(shopper(person.id).developers.applyForClient(application))).code).toBe(
      "email_not_verified",
    );
  });

  it("account linking needs a redirect URI; bad URIs are field errors", async () => {
    const { person } = await createPerson();
    expect(
      (
        await failure(
          shopper(person.id).developers.applyForClient({ ...application, redirect_uris: [] }),
        )
      ).options.fields,
    ).toEqual({ redirect_uris: "account linking needs at least one redirect URI" });
    expect(
      (
        await failure(
          shopper(person.id).developers.applyForClient({
            ...application,
            redirect_uris: ["javascript:alert(1)"],
          }),
        )
      ).options.fields?.redirect_uris,
    ).toContain("https");
  });
});
