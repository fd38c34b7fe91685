/**
 * Every email renders a plain-text version a person can act on: each link of the HTML is in it,
 * no HTML tag, no message key, no "undefined" or "NaN"; shopper emails exist in English and French
 * and the French one is French. The HTML at phone width is checked in Chromium by
 * e2e/ui/emails.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { emailPreviews, renderEmail } from "./render";

const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replaceAll("&amp;", "&"));

describe.each(emailPreviews())("$name in $locale", ({ name, locale, props }) => {
  it("has a text version with every link and nothing raw", async () => {
    const email = await renderEmail(name, props);
    expect(email.subject.length).toBeGreaterThan(5);
    for (const text of [email.subject, email.text]) {
      expect(text).not.toMatch(/\bundefined\b|\bNaN\b|\[object |<\/?[a-zA-Z][a-zA-Z0-9]*[\s>/]/);
      // A missing message shows its key ("purchases.email.heading").
      expect(text).not.toMatch(
        /\b(common|auth|account|purchases|watches|checkout|consent|mailbox|orders)\.[a-z]+\.?[a-zA-Z]*/,
      );
    }
    const links = hrefs(email.html);
    for (const link of links) expect(email.text).toContain(link);
    expect(email.html).toContain(`lang="${locale}"`);
  });

  if (locale === "fr-CA")
    it("is written in French", async () => {
      const english = await renderEmail(name, { ...(props as object), locale: "en-CA" });
      const french = await renderEmail(name, props);
      expect(french.subject).not.toBe(english.subject);
      expect(french.text).not.toBe(english.text);
    });
});
