/**
 * [CHECKOUT] The hosted checkout's end states (paid, expired, cancelled) and its open page, as a
 * shopper reads them: in English and in French (the browser's language, no account), at desktop
 * (1280x800) and phone (360x740) widths. Each says what happened and what to do; on a phone nothing
 * scrolls sideways. Money as Canadians write it, and no discount line when there is no discount.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../fixtures/api-client";
import { createCheckout } from "../fixtures/checkout";
import { snap } from "../fixtures/shoppers";

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
} as const;
const languages = ["en-CA", "fr-CA"] as const;
type Language = (typeof languages)[number];

const texts = {
  "en-CA": {
    title: "Checkout",
    paid: "Paid — thank you!",
    bought: "What you bought",
    confirmation: /A confirmation is on its way to shopper-/,
    expired: "Expired",
    expiredText: "This checkout link expired. Nothing was charged.",
    cancelled: "Cancelled",
    cancelledText: "This checkout was cancelled. Nothing was charged.",
    whatToDo: "To buy, ask the app that sent you here for a new checkout link.",
    discount: "Discount",
    pay: /^Pay \$[\d,]+\.\d{2} CAD$/,
    zone: "Times are in Eastern Time.",
    total: /^\$[\d,]+\.\d{2}$/,
  },
  "fr-CA": {
    title: "Paiement",
    paid: "Payé — merci!",
    bought: "Ce que vous avez acheté",
    confirmation: /Une confirmation est en route vers shopper-/,
    expired: "Expiré",
    expiredText: "Ce lien de paiement a expiré. Rien n’a été débité.",
    cancelled: "Annulé",
    cancelledText: "Ce paiement a été annulé. Rien n’a été débité.",
    whatToDo:
      "Pour acheter, demandez un nouveau lien de paiement à l’application qui vous a envoyé ici.",
    discount: "Rabais",
    pay: /^Payer [\d\s\u202f]+,\d{2}\s\$$/u,
    zone: "Fuseau horaire : heure de l’Est.",
    total: /^[\d\s\u202f]+,\d{2}\s\$$/u,
  },
} as const;

/** Opens `path` in a new context of this language and size, runs `check`, and on a phone checks nothing scrolls sideways. */
const inEach = async (
  browser: Browser,
  baseURL: string | undefined,
  path: string,
  check: (page: Page, language: Language) => Promise<void>,
  attach?: (page: Page, name: string) => Promise<void>,
) => {
  for (const language of languages) {
    for (const [size, viewport] of Object.entries(viewports)) {
      const context = await browser.newContext({ baseURL, viewport, locale: language });
      try {
        const page = await context.newPage();
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("lang", language);
        await check(page, language);
        if (size === "phone") {
          const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
          expect(scrollWidth, `${path} in ${language} scrolls sideways`).toBeLessThanOrEqual(360);
        }
        await attach?.(page, `${language}-${size}`);
      } finally {
        await context.close();
      }
    }
  }
};

const payWithSuccessCard = async (page: Page) => {
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Month").fill("12");
  await page.getByLabel("Year").fill("2034");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Paid — thank you!" })).toBeVisible();
};

test.describe("[CHECKOUT] end states in both languages, desktop and phone", () => {
  test("open: the page in the reader's language, money as they write it, no discount line, the zone named once", async ({
    partner,
    browser,
    baseURL,
  }, testInfo) => {
    const { checkout } = await createCheckout(partner.api, 5);
    await inEach(
      browser,
      baseURL,
      new URL(checkout.checkout_url).pathname,
      async (page, language) => {
        const text = texts[language];
        await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
        await expect(page.getByTestId("grand-total")).toHaveText(text.total);
        await expect(page.getByRole("button", { name: text.pay })).toBeVisible();
        await expect(page.getByText(text.discount, { exact: true })).toHaveCount(0);
        await expect(page.getByText(text.zone)).toHaveCount(1);
        await expect(page.locator("body")).not.toContainText("-$0.00");
        await expect(page.locator("body")).not.toContainText("UTC");
      },
      (page, name) => snap(page, testInfo, `checkout-open-${name}`),
    );
  });

  test("paid: the order number, what was bought and the confirmation email", async ({
    partner,
    page,
    browser,
    baseURL,
  }, testInfo) => {
    const { checkout } = await createCheckout(partner.api, 6);
    const path = new URL(checkout.checkout_url).pathname;
    await page.goto(path);
    await payWithSuccessCard(page);
    const orderNumber = (await page.getByTestId("order-number").textContent())!;
    const detail = await (
      await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
    ).json();
    const title = detail.stores[0].items[0].title as string;
    await inEach(
      browser,
      baseURL,
      path,
      async (paidPage, language) => {
        const text = texts[language];
        await expect(paidPage.getByRole("heading", { name: text.paid })).toBeVisible();
        await expect(paidPage.getByTestId("order-number")).toHaveText(orderNumber);
        await expect(paidPage.getByRole("heading", { name: text.bought })).toBeVisible();
        await expect(paidPage.getByText(title).first()).toBeVisible();
        await expect(paidPage.getByText(`${orderNumber}-1`)).toBeVisible();
        await expect(paidPage.getByText(text.confirmation)).toBeVisible();
        await expect(paidPage.getByRole("button", { name: text.pay })).toHaveCount(0);
      },
      (paidPage, name) => snap(paidPage, testInfo, `checkout-paid-${name}`),
    );
  });

  test("expired: nothing charged, ask the app for a new link", async ({
    partner,
    browser,
    baseURL,
  }, testInfo) => {
    const { checkout } = await createCheckout(partner.api, 7);
    expect(
      (await partner.api.post(`/api/v1/sandbox/checkouts/${checkout.checkout_id}/expire`)).status(),
    ).toBe(200);
    await inEach(
      browser,
      baseURL,
      new URL(checkout.checkout_url).pathname,
      async (page, language) => {
        const text = texts[language];
        await expect(page.getByRole("heading", { name: text.expired, exact: true })).toBeVisible();
        await expect(page.getByText(text.expiredText)).toBeVisible();
        await expect(page.getByText(text.whatToDo)).toBeVisible();
        await expect(page.getByRole("button", { name: text.pay })).toHaveCount(0);
        await expect(page.locator("input[name=number]")).toHaveCount(0);
      },
      (page, name) => snap(page, testInfo, `checkout-expired-${name}`),
    );
  });

  test("cancelled: nothing charged, ask the app for a new link", async ({
    partner,
    browser,
    baseURL,
  }, testInfo) => {
    const { checkout } = await createCheckout(partner.api, 8);
    expect(
      (await partner.api.post(`/api/v1/checkout/sessions/${checkout.checkout_id}/cancel`)).status(),
    ).toBe(200);
    await inEach(
      browser,
      baseURL,
      new URL(checkout.checkout_url).pathname,
      async (page, language) => {
        const text = texts[language];
        await expect(
          page.getByRole("heading", { name: text.cancelled, exact: true }),
        ).toBeVisible();
        await expect(page.getByText(text.cancelledText)).toBeVisible();
        await expect(page.getByText(text.whatToDo)).toBeVisible();
        await expect(page.getByRole("button", { name: text.pay })).toHaveCount(0);
      },
      (page, name) => snap(page, testInfo, `checkout-cancelled-${name}`),
    );
  });
});
