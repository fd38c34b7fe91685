/**
 * The four price-watch emails render in English and in Canadian French: the subject in the
 * reader's language, and a text version (what a plain-text mail reader shows) with the item's
 * title, its amounts formatted as the locale reads money, the times in the reader's zone, and the
 * links the person needs, and no markup.
 */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";
import { previewProps as boughtProps } from "../../emails/price-watch-bought";
import { previewProps as endedProps } from "../../emails/price-watch-ended";
import { previewProps as needsYouProps } from "../../emails/price-watch-needs-you";
import { previewProps as setProps } from "../../emails/price-watch-set";
import { formatMoney, formatTime, type Locale } from "../core/locale";

const readers = [
  { locale: "en-CA", timeZone: "America/Toronto" },
  { locale: "fr-CA", timeZone: "America/Vancouver" },
] as const satisfies readonly { locale: Locale; timeZone: string }[];

const hasNoMarkup = (text: string) => expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);

/** The text version, with line breaks and the non-breaking spaces of formatted amounts as one space each. */
const plain = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

describe.each(readers)("price watch emails in $locale", (reader) => {
  const money = (cents: number) => plain(formatMoney(cents, reader.locale));
  const time = (iso: string) => plain(formatTime(new Date(iso), reader.locale, reader.timeZone));
  const isFrench = reader.locale === "fr-CA";

  it("set: the item with its size, condition, store and price; the limits; the expiry; the cancel link", async () => {
    const props = {
      ...setProps,
      ...reader,
      cancelUrl: "http://localhost:3000/price-watches/7/cancel?token=abc",
    };
    const email = await renderEmail("price-watch-set", props);
    expect(email.subject).toBe(
      isFrench
        ? `Deal Finder a créé une surveillance de prix pour vous\u00a0: Wool coat à ${formatMoney(8_000, reader.locale)} ou moins`
        : "Deal Finder set a price watch for you: Wool coat at $80.00 or less",
    );
    const text = plain(email.text);
    expect(text).toContain("Wool coat");
    expect(text).toContain(isFrench ? "Taille M" : "Size M");
    expect(text).toContain(isFrench ? "Excellent état" : "Excellent condition");
    expect(text).toContain("Maple & Thread");
    expect(text).toContain(money(12_900));
    expect(text).toContain(money(8_000));
    expect(text).toContain(money(10_000));
    expect(text).toContain(time(props.expiresAt));
    expect(text).toContain(isFrench ? "heure du Pacifique" : "Eastern Time");
    expect(text).toContain("http://localhost:3000/price-watches/7/cancel?token=abc");
    expect(email.html).toContain('src="http://localhost:3000/images/items/1/1.svg"');
    hasNoMarkup(email.text);
  });

  it("bought: what was bought, where it ships, the assistant, the charge, the time left to cancel and the cancel link", async () => {
    const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const props = { ...boughtProps, ...reader, chargesAt: inHours(24), cancelUntil: inHours(23.5) };
    const email = await renderEmail("price-watch-bought", props);
    expect(email.subject).toBe(
      isFrench
        ? `Votre surveillance de prix a acheté Wool coat à ${formatMoney(7_900, reader.locale)} (commande SO-7K3M9QX2)`
        : "Your price watch bought Wool coat at $79.00 (order SO-7K3M9QX2)",
    );
    const text = plain(email.text);
    expect(text).toContain("Deal Finder");
    expect(text).toContain("Wool coat");
    expect(text).toContain(money(9_492));
    expect(text).toContain(isFrench ? "TVH 13%" : "HST 13%");
    expect(text).toContain("100 Queen St W");
    expect(text).toContain(time(props.chargesAt));
    expect(text).toContain(time(props.cancelUntil));
    expect(text).toContain(isFrench ? "(dans 23 heures)" : "(in 23 hours)");
    expect(text).toContain(boughtProps.cancelUrl);
    hasNoMarkup(email.text);
  });

  it("needs you: why, the item, and the checkout link with its expiry", async () => {
    const email = await renderEmail("price-watch-needs-you", { ...needsYouProps, ...reader });
    expect(email.subject).toBe(
      isFrench
        ? `Votre surveillance de prix a besoin de vous\u00a0: Wool coat est à ${formatMoney(7_900, reader.locale)}`
        : "Your price watch needs you: Wool coat is at $79.00",
    );
    const text = plain(email.text);
    expect(text).toContain(
      isFrench
        ? "Votre banque a refusé votre carte enregistrée"
        : "Your bank declined your saved card",
    );
    expect(text).toContain("Wool coat");
    expect(text).toContain(money(7_900));
    expect(text).toContain(time(needsYouProps.checkoutExpiresAt));
    expect(text).toContain("http://localhost:3000/checkout/chk_x");
    hasNoMarkup(email.text);
  });

  it("ended: one sentence per outcome, the item and the watch it was", async () => {
    const over = await renderEmail("price-watch-ended", {
      ...endedProps,
      ...reader,
      outcome: "over_your_total",
    });
    expect(over.subject).toBe(
      isFrench
        ? "Votre surveillance de prix sur Wool coat a pris fin"
        : "Your price watch on Wool coat ended",
    );
    const text = plain(over.text);
    expect(text).toContain(
      isFrench
        ? "le total avec livraison et taxes dépassait votre maximum"
        : "the total with shipping and tax was over your maximum",
    );
    expect(text).toContain(money(11_900));
    expect(text).toContain(money(8_000));
    expect(text).toContain("https://maple-and-thread.example.ca/products/wool-coat");
    hasNoMarkup(over.text);
    const cancelled = await renderEmail("price-watch-ended", {
      ...endedProps,
      ...reader,
      outcome: "cancelled",
    });
    expect(cancelled.subject).toBe(
      isFrench
        ? "Votre surveillance de prix sur Wool coat est annulée"
        : "Your price watch on Wool coat is cancelled",
    );
  });
});

describe("an email written before 1.9", () => {
  it("without locale or zone reads as English in Toronto's zone", async () => {
    const email = await renderEmail("price-watch-set", {
      ...setProps,
      locale: undefined,
      timeZone: undefined,
    });
    expect(email.subject).toBe(
      "Deal Finder set a price watch for you: Wool coat at $80.00 or less",
    );
    expect(email.text).toContain("Eastern Time");
  });
});

describe("the item's price chart (ADR 0119)", () => {
  const chart = {
    url: "http://localhost:3000/charts/price-history/1.png?target=8000&lang=en-CA&token=t",
    alt: "Price history of Wool coat over the last 90 days, with a line at your price of $80.00",
  };
  const shown =
    'src="http://localhost:3000/charts/price-history/1.png?target=8000&amp;lang=en-CA&amp;token=t"';

  it.each([
    ["price-watch-set", { ...setProps, item: { ...setProps.item, chart } }],
    ["price-watch-needs-you", { ...needsYouProps, item: { ...needsYouProps.item, chart } }],
    ["price-watch-ended", { ...endedProps, item: { ...endedProps.item, chart } }],
    ["price-watch-bought", { ...boughtProps, chart }],
  ] as const)(
    "%s shows it as an image with its words, never inline SVG",
    async (template, props) => {
      const email = await renderEmail(template, props);
      expect(email.html).toContain(shown);
      expect(email.html).toContain(`alt="${chart.alt}"`);
      expect(email.html).not.toContain("<svg");
    },
  );

  it("an email written before charts shows none", async () => {
    expect((await renderEmail("price-watch-set", setProps)).html).not.toContain("/charts/");
  });
});
