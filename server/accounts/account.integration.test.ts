/** The shopper's own account procedures (what the account pages call), as the signed-in person. */
import { describe, expect, it } from "vitest";
import { createLinkingPartner, createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure, obtainCode } from "../testing/oauth";

const anonymous = visitorCaller();

const address = {
  name: "Ana Silva",
  line1: "290 Bremner Blvd",
  line2: null,
  city: "Toronto",
  province: "ON" as const,
  postal_code: "m5v3l9",
  phone: null,
};

describe("account procedures", () => {
  it("need a signed-in shopper", async () => {
    expect((await failure(anonymous.account.getMe())).code).toBe("unauthorized");
    expect((await failure(anonymous.account.updateSizes({ sizes: ["M"] }))).code).toBe(
      "unauthorized",
    );
  });

  it("saves sizes as typed, without duplicates", async () => {
    const { person } = await createPerson();
    expect(
      await shopper(person.id).account.updateSizes({ sizes: [" M ", "8", "32x34", "8"] }),
    ).toEqual({ sizes: ["M", "8", "32x34"] });
    expect((await shopper(person.id).account.getMe()).sizes).toEqual(["M", "8", "32x34"]);
    expect(
      (await failure(shopper(person.id).account.updateSizes({ sizes: ["x".repeat(21)] }))).options
        .fields,
    ).toEqual({ "sizes[0]": "each size must be at most 20 characters" });
  });

  it("saves a Canadian address with a normalised postal code, and replaces it", async () => {
    const { person } = await createPerson();
    const saved = await shopper(person.id).account.saveShippingAddress(address);
    expect(saved).toEqual({ ...address, postal_code: "M5V 3L9", country: "CA" });
    await shopper(person.id).account.saveShippingAddress({
      ...address,
      city: "Ottawa",
      postal_code: "K1A 0B1",
    });
    expect(await shopper(person.id).account.getShippingAddress()).toMatchObject({
      city: "Ottawa",
      postal_code: "K1A 0B1",
    });
    await shopper(person.id).account.removeShippingAddress();
    expect((await failure(shopper(person.id).account.getShippingAddress())).code).toBe("not_found");
  });

  it.each([
    ["a malformed postal code", { postal_code: "12345" }, "postal_code", "Canadian postal code"],
    ["a postal code of another province", { province: "BC" }, "postal_code", "British Columbia"],
    ["an unknown province", { province: "ZZ" }, "province", "must be one of"],
    ["a US address", { country: "US" }, "country", "Canadian addresses only"],
    ["no street", { line1: "" }, "line1", "is required"],
  ])("refuses %s with a field error", async (_case, overrides, field, message) => {
    const { person } = await createPerson();
    const error = await failure(
      shopper(person.id).account.saveShippingAddress({ ...address, ...overrides } as never),
    );
    expect(error.code).toBe("invalid_request");
    expect(error.options.fields?.[field]).toContain(message);
  });

  it("a new email must be confirmed again and gets a confirmation email", async () => {
    const { person } = await createPerson({ name: "Ana" });
    const result = await shopper(person.id).account.updateProfile({
      name: "Ana S.",
      email: "Ana.New@Example.ca",
    });
    expect(result).toEqual({
      name: "Ana S.",
      email: "ana.new@example.ca",
      confirmation_sent: true,
    });
    expect(await shopper(person.id).account.getMe()).toMatchObject({
      email: "ana.new@example.ca",
      email_verified: false,
    });
    expect(
      await db().emailMessage.count({
        where: { to: "ana.new@example.ca", template: "verify-email" },
      }),
    ).toBe(1);
  });

  it("keeps the confirmation when only the name changes, and refuses an email another account uses", async () => {
    const { person } = await createPerson();
    const { person: other } = await createPerson();
    expect(
      (await shopper(person.id).account.updateProfile({ name: "New Name", email: person.email }))
        .confirmation_sent,
    ).toBe(false);
    expect((await shopper(person.id).account.getMe()).email_verified).toBe(true);
    const error = await failure(
      shopper(person.id).account.updateProfile({ name: null, email: other.email }),
    );
    expect(error.options.fields).toEqual({ email: "is already used by another account" });
  });

  it("lists connected apps with their scopes, and only the person's own", async () => {
    const { person: a } = await createPerson();
    const { person: b } = await createPerson();
    const { client } = await createLinkingPartner();
    await obtainCode({
      personId: a.id,
      clientId: client.id,
      redirectUri: client.redirectUris[0],
      scope: "address:read profile:read",
    });
    const apps = await shopper(a.id).account.connectedApps();
    expect(apps).toEqual([
      {
        client_id: client.id,
        name: client.name,
        kind: "partner",
        scopes: ["profile:read", "address:read"],
        approved_at: expect.any(Date),
      },
    ]);
    expect(await shopper(b.id).account.connectedApps()).toEqual([]);
    // Another person cannot disconnect it: not found, and A's grant stays.
    expect(
      (await failure(shopper(b.id).account.disconnectApp({ client_id: client.id }))).code,
    ).toBe("not_found");
    expect(await shopper(a.id).account.connectedApps()).toHaveLength(1);
  });
});
