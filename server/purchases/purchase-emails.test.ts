/**
 * The purchase emails render in both languages: what was bought (the item, the total as the locale
 * writes it), who bought it, when it is charged and until when it can be cancelled with the time
 * left, the cancel link; the text version is text (no HTML). Emails written before 1.9 still render.
 */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";
import { previewProps as copyPreview } from "../../emails/purchase-copy";
import { previewProps as closedPreview, purchaseOutcomes } from "../../emails/purchase-closed";

const item = copyPreview.summary.stores[0].items[0].title;
const cancelUrl = "http://localhost:3000/purchases/pur_abc/cancel?token=t0k";

/** A copy written now, cancellable for 23 h 30 min. */
const copyProps = (locale: "en-CA" | "fr-CA") => {
  const now = Date.now();
  const until = new Date(now + 23.5 * 3_600_000).toISOString();
  return {
    ...copyPreview,
    locale,
    writtenAt: new Date(now).toISOString(),
    chargesAt: until,
    cancelUntil: until,
    cancelUrl,
  };
};

const expectPlainText = (text: string) => {
  expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
  expect(text).not.toContain("&amp;");
};

describe("purchase copy email", () => {
  it("in English: the item, the total, the assistant, the time left and the cancel link", async () => {
    const email = await renderEmail("purchase-copy", copyProps("en-CA"));
    expect(email.subject).toMatch(
      /^Errand Assistant bought order SO-7K3M9QX2 for you: cancel until .+ \(Eastern Time\)$/,
    );
    expect(email.text).toContain(item);
    expect(email.text).toContain("$157.01");
    expect(email.text).toContain("Errand Assistant");
    expect(email.text).toContain("in 23 hours");
    expect(email.text).toContain("Maison Friperie");
    expect(email.text).toContain("Size M");
    expect(email.text).toContain("Excellent condition");
    expect(email.text).toContain("HST 13%");
    expect(email.text).toContain("100 Queen St W");
    expect(email.text).toContain("Times are in Eastern Time.");
    expect(email.text).toContain(cancelUrl);
    expect(email.html).toContain('src="http://localhost:3000/images/items/1/1.svg"');
    expectPlainText(email.text);
  });

  it("in French: the same in Canadian French, amounts as 157,01 $", async () => {
    const email = await renderEmail("purchase-copy", copyProps("fr-CA"));
    expect(email.subject).toMatch(
      /^Errand Assistant a acheté la commande SO-7K3M9QX2 pour vous : annulable jusqu’au .+ \(heure de l’Est\)$/,
    );
    expect(email.text).toContain(item);
    expect(email.text).toMatch(/157,01\s\$/);
    expect(email.text).toContain("dans 23 heures");
    expect(email.text).toContain("retenue");
    expect(email.text).toContain("Taille M");
    expect(email.text).toContain("TVH 13%");
    expect(email.text).toContain("courriel");
    expect(email.text).toContain(cancelUrl);
    expect(email.text).not.toContain("Cancel");
    expect(email.html).toContain('lang="fr-CA"');
    expectPlainText(email.text);
  });

  it("a copy written before 1.9 (formatted strings, no summary) still renders in English", async () => {
    const email = await renderEmail("purchase-copy", {
      orderNumber: "SO-ABCDEFGH",
      assistant: "Helper",
      grandTotal: "50.00",
      chargesAt: "Nov 23, 2026",
      cancelUntil: "Nov 23, 2026",
      cancelUrl,
    });
    expect(email.subject).toBe(
      "Helper bought order SO-ABCDEFGH for you: cancel until Nov 23, 2026",
    );
    expect(email.text).toContain(cancelUrl);
    expect(email.text).toContain("$50.00 CAD");
  });
});

describe("purchase closed email", () => {
  it.each(purchaseOutcomes)(
    "%s, in both languages, with the item and the total",
    async (outcome) => {
      const english = await renderEmail("purchase-closed", { ...closedPreview, outcome });
      const french = await renderEmail("purchase-closed", {
        ...closedPreview,
        outcome,
        locale: "fr-CA",
      });
      expect(english.subject).toContain("SO-7K3M9QX2");
      expect(french.subject).toContain("SO-7K3M9QX2");
      expect(french.subject).not.toBe(english.subject);
      for (const email of [english, french]) {
        expect(email.text).toContain(item);
        expect(email.text).toContain("Errand Assistant");
        expectPlainText(email.text);
      }
      expect(english.text).toContain("$157.01");
      expect(french.text).toMatch(/157,01\s\$/);
      expect(english.text).toContain(outcome === "charged" ? "was charged" : "nothing was charged");
      expect(french.text).toContain(
        outcome === "charged" ? "a été débitée" : "rien n’a été débité",
      );
    },
  );

  it("once charged, it says whom to ask for a refund, with the store's order number", async () => {
    const email = await renderEmail("purchase-closed", closedPreview);
    expect(email.text).toContain(
      "contact the store with its order number: Maison Friperie (SO-7K3M9QX2-1)",
    );
    expect(email.text).toContain("Times are in Eastern Time.");
  });

  it("an email written before 1.9 still renders", async () => {
    const email = await renderEmail("purchase-closed", {
      orderNumber: "SO-ABCDEFGH",
      grandTotal: "50.00",
      outcome: "item_sold",
    });
    expect(email.subject).toBe("Order SO-ABCDEFGH: the item sold elsewhere: nothing was charged");
    expect(email.text).toContain("$50.00 CAD");
  });
});
