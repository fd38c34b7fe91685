/**
 * The price-alert email renders in English and in Canadian French: the subject in the reader's
 * language with the price as the locale reads money, and a text version with the item (title,
 * store, condition), the price and the target, the item's link and the alerts page, and no markup.
 */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";
import { previewProps } from "../../emails/price-alert";
import { formatMoney, type Locale } from "../core/locale";

const plain = (text: string) => text.replace(/\s+/g, " ");

describe.each(["en-CA", "fr-CA"] as const satisfies readonly Locale[])(
  "the price alert email in %s",
  (locale) => {
    it("the item, its price and the target, the links, no markup", async () => {
      const email = await renderEmail("price-alert", { ...previewProps, locale });
      const price = formatMoney(8_900, locale);
      expect(email.subject).toBe(
        locale === "fr-CA"
          ? `Baisse de prix\u00a0: Wool coat est maintenant à ${price}`
          : "Price drop: Wool coat is now $89.00",
      );
      const text = plain(email.text);
      expect(text).toContain("Wool coat");
      expect(text).toContain("Maple & Thread");
      expect(text).toContain(locale === "fr-CA" ? "Excellent état" : "Excellent condition");
      expect(text).toContain(plain(price));
      expect(text).toContain(plain(formatMoney(9_000, locale)));
      expect(text).toContain(locale === "fr-CA" ? "Rien n’a été acheté" : "Nothing was bought");
      expect(text).toContain("https://maple-and-thread.example.ca/products/wool-coat");
      expect(text).toContain("http://localhost:3000/account/alerts");
      expect(email.text).not.toMatch(/<\/?[a-z][^>]*>/i);
      expect(email.html).toContain('src="http://localhost:3000/images/items/1/1.svg"');
    });

    it("shows the item's price chart as an image with words, when the props carry one", async () => {
      const chart = {
        url: "http://localhost:3000/charts/price-history/1.png?target=9000&lang=en-CA&token=t",
        alt: "Price history of Wool coat over the last 90 days, with a line at your price of $90.00",
      };
      const email = await renderEmail("price-alert", {
        ...previewProps,
        locale,
        item: { ...previewProps.item, chart },
      });
      expect(email.html).toContain(
        'src="http://localhost:3000/charts/price-history/1.png?target=9000&amp;lang=en-CA&amp;token=t"',
      );
      expect(email.html).toContain(`alt="${chart.alt}"`);
      expect(email.html).not.toContain("<svg");
    });
  },
);
