/** The accounts and mail commands of `npm run ops`, run as an operator runs them (a real process, JSON out). */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createItem, createPerson, createStore } from "../../../prisma/factories";
import { verifyCredentials } from "../../auth/next-auth";
import { sha256 } from "../../core/ids";
import { db } from "../../platform/db";
import { formatCents } from "../../core/money";
import { readSavedCard } from "../../accounts/store/saved-cards";
import { deliverDueEmails } from "../../platform/mail/sender";
import { shopperCaller, visitorCaller } from "../../testing/callers";
import { sandboxLedger } from "../../testing/purchase-ledger";

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

const address = {
  name: "Ana Silva",
  line1: "1 Main St",
  line2: "Apt 4",
  city: "Halifax",
  province: "NS",
  postal_code: "b3h 1a1",
  country: "CA",
};

describe("npm run ops (accounts)", () => {
  it("person:create makes a confirmed sandbox person with sizes and an address", async () => {
    const created = await ops(
      "person:create",
      "--email",
      "Test.Person@Example.ca",
      "--password",
      "sandbox password 1",
      "--verified",
      "--name",
      "Ana",
      "--sizes",
      "M, 8",
      "--address-json",
      JSON.stringify(address),
    );
    expect(created).toMatchObject({
      person_id: expect.stringMatching(/^per_/),
      email: "test.person@example.ca",
      verified: true,
      sizes: ["M", "8"],
      shipping_address: { postal_code: "B3H 1A1", province: "NS" },
    });
    expect(await verifyCredentials("test.person@example.ca", "sandbox password 1")).toMatchObject({
      id: created.person_id,
    });
    expect(
      await db().shippingAddress.findUniqueOrThrow({ where: { personId: created.person_id } }),
    ).toMatchObject({ city: "Halifax", postalCode: "B3H 1A1", line2: "Apt 4" });
    expect(
      (await db().person.findUniqueOrThrow({ where: { id: created.person_id } })).emailVerifiedAt,
    ).toBeInstanceOf(Date);
  }, 30_000);

  it("person:create sets spending limits and pauses purchases; bad limits are refused with the flag's name", async () => {
    const created = await ops(
      "person:create",
      "--email",
      "limits.person@example.ca",
      "--password",
      "sandbox password 1",
      "--limit-per-order",
      "500.00",
      "--limit-per-30-days",
      "2000",
      "--paused",
    );
    expect(created).toMatchObject({
      limit_per_order: { amount: "500.00", currency: "CAD" },
      limit_per_30_days: { amount: "2000.00", currency: "CAD" },
      purchases_paused: true,
    });
    expect(
      await db().person.findUniqueOrThrow({
        where: { id: created.person_id },
        select: {
          spendingLimitPerOrderCents: true,
          spendingLimitPer30DaysCents: true,
          purchasesPaused: true,
        },
      }),
    ).toEqual({
      spendingLimitPerOrderCents: 50_000,
      spendingLimitPer30DaysCents: 200_000,
      purchasesPaused: true,
    });
    expect(
      await ops(
        "person:create",
        "--email",
        "no.limits@example.ca",
        "--password",
        "sandbox password 1",
      ),
    ).toMatchObject({ limit_per_order: null, limit_per_30_days: null, purchases_paused: false });
    await expect(
      ops(
        "person:create",
        "--email",
        "y@example.ca",
        "--password",
        "sandbox password 1",
        "--limit-per-order",
        "500.001",
        "--limit-per-30-days",
        "2000.00",
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining(
        "--limit-per-order must be an amount in dollars with at most two decimals",
      ),
    });
    await expect(
      ops(
        "person:create",
        "--email",
        "y@example.ca",
        "--password",
        "sandbox password 1",
        "--limit-per-order",
        "3000.00",
        "--limit-per-30-days",
        "2000.00",
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining("must not be more than the limit per 30 days"),
    });
    await expect(
      ops(
        "person:create",
        "--email",
        "y@example.ca",
        "--password",
        "sandbox password 1",
        "--limit-per-order",
        "5.00",
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("go together") });
    expect(await db().person.count({ where: { email: "y@example.ca" } })).toBe(0);
  }, 60_000);

  it("person:create --card saves a sandbox test card as the dashboard would; a bad or declined number creates no one", async () => {
    const created = await ops(
      "person:create",
      "--email",
      "card.person@example.ca",
      "--password",
      "sandbox password 1",
      "--card",
      "4242 4242 4242 4242",
    );
    expect(created.card).toMatchObject({
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 5,
    });
    expect(await readSavedCard(db(), created.person_id)).toMatchObject({
      processorCustomerId: expect.stringMatching(/^sbcus_/),
      paymentMethodId: expect.stringMatching(/^sbpm_/),
      last4: "4242",
    });
    expect(
      (
        await ops(
          "person:create",
          "--email",
          "no.card@example.ca",
          "--password",
          "sandbox password 1",
        )
      ).card,
    ).toBeNull();
    await expect(
      ops(
        "person:create",
        "--email",
        "z@example.ca",
        "--password",
        "sandbox password 1",
        "--card",
        "4242424242424241",
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining("--card is not a valid card number"),
    });
    await expect(
      ops(
        "person:create",
        "--email",
        "z@example.ca",
        "--password",
        "sandbox password 1",
        "--card",
        "4000000000000002",
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("--card was declined") });
    await expect(
      ops(
        "person:create",
        "--email",
        "z@example.ca",
        "--password",
        "sandbox password 1",
        "--card",
        "5555555555554444",
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining("--card is not a sandbox test card"),
    });
    expect(await db().person.count({ where: { email: "z@example.ca" } })).toBe(0);
  }, 60_000);

  it("purchase:create-sandbox makes a held purchase with the person's saved card, a real sandbox hold and the copy email; refused without a card", async () => {
    const created = await ops(
      "person:create",
      "--email",
      "buyer.person@example.ca",
      "--password",
      "sandbox password 1",
      "--card",
      "4242424242424242",
    );
    const store = await createStore({ agentCheckout: "direct" });
    const item = await createItem({ storeId: store.id, priceCents: 4321 });
    const stock = async () =>
      (await db().variant.findFirstOrThrow({ where: { itemId: item.id }, orderBy: { id: "asc" } }))
        .quantity;
    const before = await stock();
    const purchase = await ops(
      "purchase:create-sandbox",
      "--email",
      "Buyer.Person@example.ca",
      "--item",
      String(item.id),
      "--name",
      "Ops Assistant",
    );
    expect(purchase).toMatchObject({
      status: "held",
      assistant: "Ops Assistant",
      store: store.name,
      charges_at: expect.any(String),
    });
    // Priced as a quote to Toronto: the item, the store's cheapest shipping, 13% HST; its store order says the same.
    const order = await db().order.findFirstOrThrow({
      where: { purchaseId: purchase.purchase_id },
    });
    expect(order).toMatchObject({
      subtotalCents: 4321,
      taxCents: expect.any(Number),
      grandTotalCents: 4321 + order.shippingCents + order.taxCents,
    });
    expect(order.taxCents).toBeGreaterThan(0);
    expect(purchase.grand_total).toBe(formatCents(order.grandTotalCents));
    expect(await sandboxLedger(purchase.purchase_id)).toMatchObject({
      status: "authorized",
      holds: 1,
    });
    expect(
      await db().emailMessage.count({
        where: { dedupeKey: `purchase-copy:${purchase.purchase_id}` },
      }),
    ).toBe(1);
    // Reserved as POST /purchases reserves.
    expect(await stock()).toBe(before - 1);
    expect(
      (await shopperCaller(created.person_id).account.listMyPurchases()).purchases,
    ).toMatchObject([
      {
        purchase_id: purchase.purchase_id,
        status: "held",
        assistant: "Ops Assistant",
        can_cancel: true,
      },
    ]);
    await ops(
      "person:create",
      "--email",
      "nocard.buyer@example.ca",
      "--password",
      "sandbox password 1",
    );
    await expect(
      ops(
        "purchase:create-sandbox",
        "--email",
        "nocard.buyer@example.ca",
        "--item",
        String(item.id),
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("has no saved card") });
    await expect(
      ops("purchase:create-sandbox", "--email", "nobody.here@example.ca"),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("no person") });
  }, 60_000);

  it("sandbox:purchase-due charges a held purchase now; sandbox:item-sold sells its item elsewhere, so the next one is cancelled at its charge; create-sandbox gives the cancel link", async () => {
    await ops(
      "person:create",
      "--email",
      "due.buyer@example.ca",
      "--password",
      "sandbox password 1",
      "--card",
      "4242424242424242",
    );
    const store = await createStore({ agentCheckout: "direct" });
    const item = await createItem({ storeId: store.id, priceCents: 2500, quantity: 2 });
    const buy = () =>
      ops("purchase:create-sandbox", "--email", "due.buyer@example.ca", "--item", String(item.id));
    const charged = await buy();
    expect(charged).toMatchObject({ item_title: item.title });
    expect(new URL(charged.cancel_url).pathname).toBe(`/purchases/${charged.purchase_id}/cancel`);
    expect(await ops("sandbox:purchase-due", charged.purchase_id)).toEqual({
      purchase_id: charged.purchase_id,
      status: "paid",
      outcome: "paid",
    });
    const sold = await buy();
    expect(await ops("sandbox:item-sold", String(item.id))).toEqual({
      item_id: item.id,
      status: "sold",
    });
    expect(await ops("sandbox:purchase-due", sold.purchase_id)).toMatchObject({
      status: "cancelled",
    });
    expect(
      (await db().purchase.findUniqueOrThrow({ where: { id: sold.purchase_id } })).reason,
    ).toBe("item_sold");
    await expect(ops("sandbox:item-sold", String(item.id))).rejects.toMatchObject({
      stderr: expect.stringContaining("not for sale"),
    });
  }, 90_000);

  it("person:create refuses a bad address, a short password and a taken email with clear messages", async () => {
    await expect(
      ops(
        "person:create",
        "--email",
        "x@example.ca",
        "--password",
        "sandbox password 1",
        "--address-json",
        JSON.stringify({ ...address, province: "BC" }),
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("British Columbia") });
    await expect(
      ops("person:create", "--email", "x@example.ca", "--password", "short"),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("at least 10 characters") });
    const { person } = await createPerson();
    await expect(
      ops("person:create", "--email", person.email, "--password", "sandbox password 1"),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("exists") });
  }, 30_000);

  it("application:list/approve, client:list and agent:registration-token", async () => {
    const { person } = await createPerson();
    const application = await db().clientApplication.create({
      data: {
        id: "app_cli_test",
        personId: person.id,
        name: "Pending App",
        contactEmail: "dev@app.example",
        redirectUris: ["https://app.example/cb"],
        wantsLinking: true,
        environment: "sandbox",
      },
    });
    expect(
      (await ops("application:list", "--status", "pending")).applications.map(
        (a: { application_id: string }) => a.application_id,
      ),
    ).toContain(application.id);
    const approved = await ops("application:approve", application.id);
    expect(approved).toMatchObject({
      status: "approved",
      client_id: expect.stringMatching(/^cli_test_/),
      linking: true,
    });
    await expect(ops("application:approve", application.id)).rejects.toMatchObject({
      stderr: expect.stringContaining("no pending application"),
    });
    const listed = await ops("client:list", "--kind", "partner");
    expect(
      listed.clients.find((c: { client_id: string }) => c.client_id === approved.client_id),
    ).toMatchObject({ name: "Pending App", kind: "partner", environment: "sandbox" });
    expect(JSON.stringify(listed)).not.toMatch(/secret/i);
    const issued = await ops(
      "agent:registration-token",
      "--uses",
      "3",
      "--days",
      "7",
      "--note",
      "partner X",
    );
    expect(issued).toMatchObject({
      registration_token: expect.stringMatching(/^reg_/),
      max_uses: 3,
    });
    expect(
      await db().registrationToken.findUniqueOrThrow({
        where: { tokenHash: sha256(issued.registration_token) },
      }),
    ).toMatchObject({ maxUses: 3, uses: 0, note: "partner X" });
  }, 60_000);
});

describe("npm run ops (mail)", () => {
  it("mail:list --to finds a person's reset email and mail:show prints its text with the link", async () => {
    const { person } = await createPerson();
    await visitorCaller().shopperAuth.requestPasswordReset({ email: person.email });
    await deliverDueEmails({ db: db(), now: new Date(), limit: 100 });
    const listed = await ops("mail:list", "--to", person.email.toUpperCase());
    expect(listed.messages).toEqual([
      expect.objectContaining({
        id: expect.any(String),
        to: person.email,
        subject: "Reset your password",
        status: "sent",
      }),
    ]);
    const shown = await ops("mail:show", listed.messages[0].id);
    expect(shown).toMatchObject({
      id: listed.messages[0].id,
      to: person.email,
      subject: "Reset your password",
    });
    expect(shown.text).toMatch(/\/reset-password\?token=/);
    await expect(ops("mail:show", "eml_nope")).rejects.toMatchObject({
      stderr: expect.stringContaining("no email eml_nope"),
    });
  }, 60_000);
});
