/**
 * Saving a card with Stripe's Payment Element (setup mode), through the dashboard procedures and
 * the real `stripe` package against the local Stripe-shaped server; the browser's part (Stripe.js
 * confirming the SetupIntent with the publishable key and the client secret) is a form POST, as the
 * stand-in Stripe.js sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { paymentProvider } from "../payments";
import { shopperCaller as shopper } from "../testing/callers";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { completeCardSetup } from "./complete-card-setup";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  Object.assign(process.env, {
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: "sk_test_local",
    STRIPE_API_BASE: stripe.url,
  });
  resetEnv();
});
afterAll(async () => {
  for (const name of ["PAYMENT_PROCESSOR", "STRIPE_SECRET_KEY", "STRIPE_API_BASE"])
    delete process.env[name];
  resetEnv();
  await stripe.close();
});

const setupIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0];
/** What Stripe.js sends for the Payment Element in setup mode. */
const confirmInBrowser = async (
  clientSecret: string,
  number: string,
  expiry = { month: "11", year: "2033" },
) => {
  const response = await fetch(
    `${stripe.url}/v1/setup_intents/${setupIdOf(clientSecret)}/confirm`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: "pk_test_local",
        client_secret: clientSecret,
        return_url: "http://127.0.0.1:1/account/card",
        "payment_method_data[type]": "card",
        "payment_method_data[card][number]": number,
        "payment_method_data[card][exp_month]": expiry.month,
        "payment_method_data[card][exp_year]": expiry.year,
        "payment_method_data[card][cvc]": "123",
      }).toString(),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("saving a card with a SetupIntent", () => {
  it("makes the person's Customer once, saves brand, last four and expiry from the PaymentMethod, and completes once", async () => {
    const { person } = await createPerson();
    const { client_secret: clientSecret } = await shopper(person.id).account.startCardSetup();
    expect(clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    const setup = stripe.setups.get(setupIdOf(clientSecret))!;
    const { processorCustomerId } = await db().person.findUniqueOrThrow({
      where: { id: person.id },
    });
    expect(setup).toMatchObject({
      usage: "off_session",
      customer: processorCustomerId,
      status: "requires_payment_method",
      metadata: { person_id: person.id },
    });
    expect(processorCustomerId).toMatch(/^cus_/);
    // Not confirmed yet: nothing to record.
    await expect(
      shopper(person.id).account.completeCardSetup({ setup_intent: setup.id as string }),
    ).rejects.toMatchObject({ cause: { code: "not_found" } });
    expect((await confirmInBrowser(clientSecret, "4242424242424242")).body).toMatchObject({
      status: "succeeded",
    });
    const now = new Date();
    const [first, second] = await Promise.all([
      shopper(person.id).account.completeCardSetup({ setup_intent: setup.id as string }),
      completeCardSetup(db(), paymentProvider(), { setupIntentId: setup.id as string, now }),
    ]);
    expect(first.card).toMatchObject({
      brand: "visa",
      last4: "4242",
      exp_month: 11,
      exp_year: 2033,
    });
    expect(second).toMatchObject({
      personId: person.id,
      card: { paymentMethodId: setup.payment_method, last4: "4242" },
    });
    expect(
      await db().savedCard.findUniqueOrThrow({ where: { personId: person.id } }),
    ).toMatchObject({
      processorCustomerId,
      paymentMethodId: setup.payment_method,
      brand: "visa",
      last4: "4242",
    });
    // A second setup reuses the Customer.
    const again = await shopper(person.id).account.startCardSetup();
    expect(stripe.setups.get(setupIdOf(again.client_secret))).toMatchObject({
      customer: processorCustomerId,
    });
  });

  it("replacing the card detaches the old PaymentMethod at Stripe; removing detaches the last one", async () => {
    const { person } = await createPerson();
    const save = async (number: string) => {
      const { client_secret: clientSecret } = await shopper(person.id).account.startCardSetup();
      await confirmInBrowser(clientSecret, number);
      await shopper(person.id).account.completeCardSetup({ setup_intent: setupIdOf(clientSecret) });
      return stripe.setups.get(setupIdOf(clientSecret))!.payment_method as string;
    };
    const old = await save("4242424242424242");
    const replacing = await save("4242424242424242");
    expect(stripe.methods.get(old)!.customer).toBeNull();
    expect(stripe.methods.get(replacing)!.customer).toMatch(/^cus_/);
    await shopper(person.id).account.removeCard();
    expect(stripe.methods.get(replacing)!.customer).toBeNull();
    expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(0);
    // The Customer is remembered for the next card.
    expect(
      (await db().person.findUniqueOrThrow({ where: { id: person.id } })).processorCustomerId,
    ).toMatch(/^cus_/);
  });

  it("a declined card is not saved; another person's SetupIntent is refused", async () => {
    const [{ person }, { person: other }] = [await createPerson(), await createPerson()];
    const { client_secret: clientSecret } = await shopper(person.id).account.startCardSetup();
    expect(await confirmInBrowser(clientSecret, "4000000000000002")).toMatchObject({
      status: 402,
      body: { error: { code: "card_declined" } },
    });
    await expect(
      shopper(person.id).account.completeCardSetup({ setup_intent: setupIdOf(clientSecret) }),
    ).rejects.toMatchObject({ cause: { code: "invalid_request" } });
    expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(0);
    const next = await shopper(person.id).account.startCardSetup();
    await confirmInBrowser(next.client_secret, "4242424242424242");
    await expect(
      shopper(other.id).account.completeCardSetup({ setup_intent: setupIdOf(next.client_secret) }),
    ).rejects.toMatchObject({ cause: { code: "not_found" } });
    expect(await db().savedCard.count({ where: { personId: other.id } })).toBe(0);
  });

  it("the sandbox's card form, posted anyway, refuses the 3-D Secure test card (Stripe would wait for an authentication no one gives) and saves a test card", async () => {
    const { person } = await createPerson();
    const card = (number: string) => ({ number, exp_month: 12, exp_year: 2034, cvc: "123" });
    const setups = stripe.setups.size;
    await expect(
      shopper(person.id).account.saveCard(card("4000 0025 0000 3155")),
    ).rejects.toMatchObject({
      cause: {
        code: "invalid_request",
        options: { fields: { number: expect.stringMatching(/3-D Secure/) } },
      },
    });
    expect(stripe.setups.size).toBe(setups);
    expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(0);
    expect(await shopper(person.id).account.saveCard(card("4242 4242 4242 4242"))).toMatchObject({
      card: { last4: "4242" },
    });
  });
});
