/**
 * The order emails (confirmation, shipped, refund, payment failed) render in English and French
 * from their preview props: subject and text in the locale, money as the locale writes it, each
 * item's title, the links, pictures at absolute URLs, and no raw HTML or message key in the text.
 */
import { describe, expect, it } from "vitest";
import { formatMoney, type Locale } from "../server/core/locale";
import { renderEmail } from "./render";
import { previewProps as confirmation } from "./order-confirmation";
import { previewProps as shipped } from "./order-shipped";
import { previewProps as refund } from "./refund-issued";
import { previewProps as failed } from "./payment-failed";

const locales: Locale[] = ["en-CA", "fr-CA"];

/** What no text version may carry: a tag, an escaped entity, or a message key left untranslated. */
const expectCleanText = (text: string) => {
  expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
  expect(text).not.toMatch(/&(amp|lt|gt|quot|#\d+);/);
  expect(text).not.toMatch(/\b(orders|common|checkout)\.[a-z]+/);
};

describe("order emails in both languages", () => {
  it.each(locales)("the order confirmation (%s)", async (locale) => {
    const email = await renderEmail("order-confirmation", { ...confirmation, locale });
    const isFrench = locale === "fr-CA";
    expect(email.subject).toBe(
      isFrench ? "Votre commande SO-7K3M9QX2 est confirmée" : "Your order SO-7K3M9QX2 is confirmed",
    );
    expect(email.html).toContain(`lang="${locale}"`);
    // The text version capitalises headings: the heading is read in the HTML.
    expect(email.html).toContain(
      isFrench ? "Merci de votre commande, Ana" : "Thank you for your order, Ana",
    );
    for (const expected of [
      "Wool coat",
      isFrench ? "Taille M" : "Size M",
      isFrench ? "Excellent état" : "Excellent condition",
      "Maple & Thread",
      "SO-7K3M9QX2-1",
      isFrench ? "TVH 13%" : "HST 13%",
      formatMoney(146_894, locale),
      "Toronto ON M5H 2N2",
      "https://maple-and-thread.example.ca",
      isFrench ? "heure de l’Est" : "Eastern Time",
    ])
      expect(email.text).toContain(expected);
    expect(email.text).toMatch(isFrench ? /1\s468,94\s\$/u : /\$1,468\.94/);
    expect(email.text).not.toContain(isFrench ? "Thank you" : "Merci");
    // No discount on this order: no discount line.
    expect(email.text).not.toMatch(isFrench ? /Rabais/ : /Discount/);
    expect(email.html).toContain(
      'src="https://shopping-api.example.ca/images/items/wool-coat.jpg"',
    );
    expectCleanText(email.text);
  });

  it.each(locales)("the shipped email (%s)", async (locale) => {
    const email = await renderEmail("order-shipped", { ...shipped, locale });
    const isFrench = locale === "fr-CA";
    expect(email.html).toContain(
      isFrench ? "Votre colis est en route" : "Your parcel is on its way",
    );
    expect(email.subject).toBe(
      isFrench ? "La commande SO-7K3M9QX2-1 a été expédiée" : "Order SO-7K3M9QX2-1 has shipped",
    );
    for (const expected of [
      "7023 4567 8901 2345",
      "Canada Post",
      isFrench ? "Wool coat (taille M)" : "Wool coat (size M)",
      "https://maple-and-thread.example.ca",
    ])
      expect(email.text).toContain(expected);
    expectCleanText(email.text);
  });

  it.each(locales)("the refund email (%s)", async (locale) => {
    const isFrench = locale === "fr-CA";
    const email = await renderEmail("refund-issued", { ...refund, locale });
    expect(email.subject).toBe(
      isFrench
        ? `Commande SO-7K3M9QX2-1 : ${formatMoney(8999, locale)} remboursé`
        : "Order SO-7K3M9QX2-1: $89.99 refunded",
    );
    for (const expected of [
      formatMoney(8999, locale),
      formatMoney(11_254, locale),
      "Wool coat",
      isFrench ? "votre carte se terminant par 4242" : "your card ending in 4242",
      "https://maple-and-thread.example.ca",
    ])
      expect(email.text).toContain(expected);
    expectCleanText(email.text);
  });

  it("a full refund says so", async () => {
    const email = await renderEmail("refund-issued", {
      ...refund,
      locale: "fr-CA",
      refundedCents: refund.orderTotalCents,
      amountCents: refund.orderTotalCents,
    });
    expect(email.text).toContain(`entièrement remboursée (${formatMoney(11_254, "fr-CA")})`);
  });

  it.each(locales)("the payment-failed email (%s)", async (locale) => {
    const isFrench = locale === "fr-CA";
    const email = await renderEmail("payment-failed", { ...failed, locale });
    expect(email.subject).toBe(
      isFrench
        ? "Commande SO-7K3M9QX2 : nous n’avons pas pu percevoir votre paiement"
        : "Order SO-7K3M9QX2: we could not collect your payment",
    );
    expect(email.text).toContain(formatMoney(15_701, locale));
    expect(email.text).toContain(isFrench ? "Bonjour Ana," : "Hi Ana,");
    expectCleanText(email.text);
  });

  it("props written before the languages (no locale) render in English", async () => {
    const { locale: _locale, timeZone: _zone, ...legacy } = failed;
    const email = await renderEmail("payment-failed", legacy);
    expect(email.subject).toBe("Order SO-7K3M9QX2: we could not collect your payment");
  });
});
