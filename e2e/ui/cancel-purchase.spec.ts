/**
 * [CANCEL PAGE] The page the purchase copy email's link opens, in Debian chromium, in each of its
 * states: cancellable, cancelled (by pressing its button), too late (charged), the item sold
 * elsewhere, and a link that does not verify; each at desktop (1280x800) and phone (360x740)
 * widths, in English and in French (the browser's Accept-Language, `locale: "fr-CA"`). Every view
 * shows what happened and the item bought; on the phone nothing scrolls sideways.
 * Purchases are real sandbox holds (`ops purchase:create-sandbox`); the charge is run now with
 * `ops sandbox:purchase-due`, the item sold elsewhere with `ops sandbox:item-sold`; a refund the
 * bank sends back with `ops purchase:refund` then `ops sandbox:refund-sent-back`.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { shopperAddress } from "../fixtures/checkout";
import { snap, unique } from "../fixtures/shoppers";

type Made = {
  purchase_id: string;
  status: string;
  order_number: string;
  item_id: number;
  item_title: string;
  store: string;
  cancel_url: string;
};

type Language = "en" | "fr";

const views = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, language: "en" },
  { name: "phone", viewport: { width: 360, height: 740 }, language: "en" },
  { name: "desktop", viewport: { width: 1280, height: 800 }, language: "fr" },
  { name: "phone", viewport: { width: 360, height: 740 }, language: "fr" },
] as const;

/** What each state says, in each language (server/core/messages/{en,fr}/purchases.json). */
const says: Record<string, Record<Language, string[]>> = {
  cancellable: {
    en: ["You can still cancel", "Bought for you by Errand Assistant"],
    fr: ["Vous pouvez encore annuler", "Acheté pour vous par Errand Assistant"],
  },
  cancelled: {
    en: ["This purchase is cancelled", "You cancelled it. The hold on your card is released"],
    fr: ["Cet achat est annulé", "Vous l’avez annulé. La retenue sur votre carte est libérée"],
  },
  charged: {
    en: ["It is too late to cancel: your card was charged", "contact the store"],
    fr: [
      "Il est trop tard pour annuler : votre carte a été débitée",
      "communiquez avec la boutique",
    ],
  },
  item_sold: {
    en: ["This purchase is cancelled", "The item sold elsewhere before the charge"],
    fr: ["Cet achat est annulé", "L’article a été vendu ailleurs avant le débit"],
  },
  sent_back: {
    en: [
      "Your refund did not reach your card",
      "the card was reported lost or stolen",
      "The money is still yours",
    ],
    fr: [
      "Votre remboursement n’a pas atteint votre carte",
      "la carte a été déclarée perdue ou volée",
      "L’argent vous revient toujours",
    ],
  },
  invalid: {
    en: ["This link does not work", "Use the link in the latest email"],
    fr: ["Ce lien ne fonctionne pas", "Utilisez le lien du plus récent courriel"],
  },
};

const zoneNote: Record<Language, string> = {
  en: "Times are in Eastern Time.",
  fr: "Fuseau horaire : heure de l’Est.",
};

const cancelButton: Record<Language, string> = {
  en: "Cancel this purchase",
  fr: "Annuler cet achat",
};

const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

/** A page in a browser of that width and language. */
const open = async (browser: Browser, baseURL: string, view: (typeof views)[number]) => {
  const context = await browser.newContext({
    baseURL,
    viewport: view.viewport,
    locale: view.language === "fr" ? "fr-CA" : "en-CA",
  });
  return { page: await context.newPage(), close: () => context.close() };
};

/** Nothing wider than the phone's screen: no sideways scrolling, no zoom needed. */
const expectFitsWidth = async (page: Page, width: number) => {
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
};

const expectState = async (
  page: Page,
  state: string,
  language: Language,
  made: Made | undefined,
  width: number,
) => {
  const card = page.locator("section.purchase-card");
  const shownState = { item_sold: "cancelled", sent_back: "refunded" }[state] ?? state;
  await expect(card).toHaveAttribute("data-state", shownState);
  for (const text of says[state][language]) await expect(card).toContainText(text);
  if (made) {
    await expect(page.getByRole("heading", { level: 1 })).toContainText(made.order_number);
    await expect(card.locator(".bought-item-title")).toHaveText(made.item_title);
    await expect(card).toContainText(made.store);
    await expect(card.locator(".zone-note")).toHaveText(zoneNote[language]);
  }
  await expect(page.locator("html")).toHaveAttribute("lang", language === "fr" ? "fr-CA" : "en-CA");
  if (width <= 360) await expectFitsWidth(page, width);
};

test.describe("[CANCEL PAGE] the purchase cancel page, every state, desktop and phone, English and French", () => {
  const made: Record<string, Made> = {};

  test.beforeAll(() => {
    const email = `cancel-page-${unique()}@example.ca`;
    ops(
      "person:create",
      "--email",
      email,
      "--password",
      "sandbox password 1",
      "--verified",
      "--name",
      "Noor",
      "--card",
      "4242424242424242",
      "--address-json",
      JSON.stringify(shopperAddress),
    );
    const buy = () =>
      ops("purchase:create-sandbox", "--email", email, "--name", "Errand Assistant") as Made;
    for (const state of [
      "cancellable",
      "cancelledEn",
      "cancelledFr",
      "charged",
      "item_sold",
      "sent_back",
    ]) {
      made[state] = buy();
      expect(made[state].status).toBe("held");
    }
    expect(ops("sandbox:purchase-due", made.charged.purchase_id)).toMatchObject({
      status: "paid",
    });
    // Charged, refunded in full, then the refund sent back by the bank (a card reported lost).
    expect(ops("sandbox:purchase-due", made.sent_back.purchase_id)).toMatchObject({
      status: "paid",
    });
    const { refunds } = ops(
      "purchase:refund",
      made.sent_back.purchase_id,
      "--reason",
      "Returned",
    ) as {
      refunds: { refund_id: string; status: string }[];
    };
    expect(refunds).toEqual([expect.objectContaining({ status: "succeeded" })]);
    expect(
      ops("sandbox:refund-sent-back", refunds[0].refund_id, "--reason", "lost_or_stolen_card"),
    ).toMatchObject({ status: "failed" });
    ops("sandbox:item-sold", String(made.item_sold.item_id));
    expect(ops("sandbox:purchase-due", made.item_sold.purchase_id)).toMatchObject({
      status: "cancelled",
      outcome: "cancelled",
    });
  });

  test("cancellable: what was bought, who bought it, the charge time, one button", async ({
    browser,
    baseURL,
  }, testInfo) => {
    for (const view of views) {
      const { page, close } = await open(browser, baseURL!, view);
      try {
        await page.goto(pathOf(made.cancellable.cancel_url));
        await expectState(
          page,
          "cancellable",
          view.language,
          made.cancellable,
          view.viewport.width,
        );
        await expect(page.getByRole("button", { name: cancelButton[view.language] })).toBeEnabled();
        // Time left until the deadline, in the page's language.
        await expect(page.locator("section.purchase-card")).toContainText(
          view.language === "fr" ? /dans 2\d heures/ : /in 2\d hours/,
        );
        await snap(page, testInfo, `cancellable-${view.name}-${view.language}`);
      } finally {
        await close();
      }
    }
  });

  test("pressing cancel shows the cancelled state, in English on a desktop and in French on a phone", async ({
    browser,
    baseURL,
  }, testInfo) => {
    for (const [key, view] of [
      ["cancelledEn", views[0]],
      ["cancelledFr", views[3]],
    ] as const) {
      const { page, close } = await open(browser, baseURL!, view);
      try {
        await page.goto(pathOf(made[key].cancel_url));
        await page.getByRole("button", { name: cancelButton[view.language] }).click();
        await expectState(page, "cancelled", view.language, made[key], view.viewport.width);
        await expect(page.getByRole("button", { name: cancelButton[view.language] })).toHaveCount(
          0,
        );
        await snap(page, testInfo, `cancelled-${view.name}-${view.language}`);
      } finally {
        await close();
      }
    }
    // Opened again later, in every width and language, the link says the same.
    for (const view of views) {
      const { page, close } = await open(browser, baseURL!, view);
      try {
        await page.goto(pathOf(made.cancelledEn.cancel_url));
        await expectState(page, "cancelled", view.language, made.cancelledEn, view.viewport.width);
      } finally {
        await close();
      }
    }
  });

  for (const state of ["charged", "item_sold", "sent_back"] as const) {
    test(`${state}: what happened and what to do`, async ({ browser, baseURL }, testInfo) => {
      for (const view of views) {
        const { page, close } = await open(browser, baseURL!, view);
        try {
          await page.goto(pathOf(made[state].cancel_url));
          await expectState(page, state, view.language, made[state], view.viewport.width);
          await expect(page.getByRole("button", { name: cancelButton[view.language] })).toHaveCount(
            0,
          );
          if (state === "charged")
            await expect(page.locator("section.purchase-card")).toContainText(
              `${made.charged.store}`,
            );
          // Not "the money went back to your card": the bank sent it back.
          if (state === "sent_back")
            await expect(page.locator("section.purchase-card")).not.toContainText(
              view.language === "fr" ? "Cet achat a été remboursé" : "This purchase was refunded",
            );
          await snap(page, testInfo, `${state}-${view.name}-${view.language}`);
        } finally {
          await close();
        }
      }
    });
  }

  test("a changed or foreign token: the link does not work, and what to do instead", async ({
    browser,
    baseURL,
  }, testInfo) => {
    const link = new URL(made.cancellable.cancel_url);
    const token = link.searchParams.get("token")!;
    const tampered = `${link.pathname}?token=${encodeURIComponent(`${token.slice(0, -2)}xx`)}`;
    const foreign = `/purchases/${made.charged.purchase_id}/cancel?token=${encodeURIComponent(token)}`;
    for (const view of views) {
      const { page, close } = await open(browser, baseURL!, view);
      try {
        for (const path of [tampered, foreign]) {
          await page.goto(path);
          await expectState(page, "invalid", view.language, undefined, view.viewport.width);
          await expect(page.locator("section.purchase-card")).not.toContainText(
            made.cancellable.item_title,
          );
          await expect(
            page.locator("section.purchase-card").getByRole("link", {
              name: view.language === "fr" ? "Voir vos achats" : "See your purchases",
            }),
          ).toHaveAttribute("href", "/account/purchases");
        }
        await snap(page, testInfo, `invalid-${view.name}-${view.language}`);
      } finally {
        await close();
      }
    }
  });
});
