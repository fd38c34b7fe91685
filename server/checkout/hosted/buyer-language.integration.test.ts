/**
 * The language the buyer pays in: the hosted page passes its language when paying, the checkout
 * records it (buyer_language), and the order confirmation is written in it, in the zone of the
 * province it ships to. A checkout paid without a language (the API, an old page) is confirmed in
 * English.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { renderEmail } from "../../../emails/render";
import { formatMoney } from "../../core/locale";
import { db } from "../../platform/db";
import { testCards } from "../../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";

const vancouver = {
  name: "Élise Gagnon",
  line1: "800 Robson St",
  city: "Vancouver",
  province: "BC",
  postal_code: "V6Z 2E7",
  country: "CA",
};

let token: string;
let storeId: number;
beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore({ name: "Boutique Lavande" })).id;
});

const payCheckout = async (language?: "en" | "fr") => {
  const item = await createItem({ storeId, title: "Manteau de laine", priceCents: 123_456 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }], vancouver);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: `buyer-${language ?? "none"}@example.ca`,
    first_name: "Élise",
  });
  const id = JSON.parse(text).checkout_id as string;
  const outcome = await pageCaller().checkoutPage.pay({
    id,
    accept_terms: true,
    method: { type: "card", number: testCards.succeeds, exp_month: 1, exp_year: 2040, cvc: "123" },
    ...(language ? { language } : {}),
  });
  expect(outcome.outcome).toBe("paid");
  const checkout = await db().checkout.findUniqueOrThrow({ where: { id } });
  const email = await db().emailMessage.findFirstOrThrow({
    where: { dedupeKey: `order-confirmation:${id}` },
  });
  return { checkout, email, orderNumber: (outcome as { orderNumber: string }).orderNumber };
};

describe("the buyer's language", () => {
  it("a checkout paid in French records fr and writes a French confirmation in the ship-to's zone", async () => {
    const { checkout, email, orderNumber } = await payCheckout("fr");
    expect(checkout.buyerLanguage).toBe("fr");
    expect(email.props).toMatchObject({ locale: "fr-CA", timeZone: "America/Vancouver" });
    const rendered = await renderEmail("order-confirmation", email.props);
    expect(rendered.subject).toBe(`Votre commande ${orderNumber} est confirmée`);
    expect(rendered.html).toContain("Merci de votre commande, Élise");
    expect(rendered.text).toContain("Manteau de laine");
    expect(rendered.text).toContain(`${orderNumber}-1`);
    expect(rendered.text).toContain(formatMoney(checkout.grandTotalCents, "fr-CA"));
    expect(rendered.text).toMatch(/\d\s\d{3},\d{2}\s\$/u);
    expect(rendered.text).toContain("heure du Pacifique");
    expect(rendered.html).toContain('lang="fr-CA"');
  });

  it("a checkout paid without a language is confirmed in English", async () => {
    const { checkout, email, orderNumber } = await payCheckout();
    expect(checkout.buyerLanguage).toBeNull();
    expect(email.props).toMatchObject({ locale: "en-CA", timeZone: "America/Vancouver" });
    const rendered = await renderEmail("order-confirmation", email.props);
    expect(rendered.subject).toBe(`Your order ${orderNumber} is confirmed`);
    expect(rendered.text).toContain(formatMoney(checkout.grandTotalCents, "en-CA"));
    expect(rendered.text).toMatch(/\$\d,\d{3}\.\d{2}/);
  });
});
