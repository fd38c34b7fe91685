/**
 * [DASHBOARD] assistant purchases in Debian chromium: a person with a held purchase (made through
 * `ops purchase:create-sandbox`, a real sandbox hold) sees it at /account/purchases with its
 * status, item, store, total, assistant and time left, cancels it through @trpc/client, and sees
 * it cancelled in place without a reload, and still after one; and in French (Accept-Language
 * fr-CA), the same list in French with amounts as French writes them. A purchase refunded in part
 * whose refund the bank sent back (`ops sandbox:refund-sent-back`) says so, not "refunded".
 */
import { expect, test } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { signIn, signInNewShopper, snap, unique } from "../fixtures/shoppers";

test.describe("[DASHBOARD] assistant purchases", () => {
  test("see a held purchase, cancel it, see it cancelled", async ({ page }, testInfo) => {
    const email = `purchases-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops(
      "person:create",
      "--email",
      email,
      "--password",
      password,
      "--verified",
      "--name",
      "Noor",
      "--card",
      "4242424242424242",
    );
    const purchase = ops(
      "purchase:create-sandbox",
      "--email",
      email,
      "--name",
      "Helpful Assistant",
    ) as {
      purchase_id: string;
      status: string;
      grand_total: string;
      store: string;
      item_title: string;
      order_number: string;
    };
    expect(purchase.status).toBe("held");

    await page.goto("/sign-in?callbackUrl=/account/purchases");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/purchases$/, { timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Assistant purchases" })).toBeVisible();

    const row = page.locator(`[data-purchase-id="${purchase.purchase_id}"]`);
    await expect(row.getByTestId("purchase-status")).toHaveText("Held");
    await expect(row).toContainText(purchase.store);
    await expect(row).toContainText("Helpful Assistant");
    await expect(row.getByTestId("purchase-total")).toHaveText(
      `$${purchase.grand_total.replace(/\B(?=(\d{3})+\.)/g, ",")}`,
    );
    await expect(row.getByTestId("purchase-items")).toContainText(purchase.item_title);
    await expect(row.getByTestId("purchase-order")).toHaveText(purchase.order_number);
    await expect(row.getByTestId("charges-in")).toContainText(/in 23 hours/);
    await expect(page.getByText("Times are in Eastern Time.")).toBeVisible();
    await snap(page, testInfo, "purchase-held");

    await page.evaluate(() => Object.assign(window, { stillHere: true }));
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.cancelMyPurchase") && request.method() === "POST",
    );
    await row.getByRole("button", { name: "Cancel purchase" }).click();
    expect((await mutation).headers()["content-type"]).toContain("application/json");
    await expect(page.getByText("The purchase is cancelled")).toBeVisible();
    await expect(row.getByTestId("purchase-status")).toHaveText("Cancelled");
    await expect(row.getByRole("button", { name: "Cancel purchase" })).toHaveCount(0);
    await expect(row.getByTestId("charges-in")).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    await snap(page, testInfo, "purchase-cancelled");

    await page.reload();
    await expect(row.getByTestId("purchase-status")).toHaveText("Cancelled");
  });

  test("in French: the list, the status, the item and the total as French writes them", async ({
    page,
    baseURL,
  }, testInfo) => {
    const email = `purchases-fr-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops(
      "person:create",
      "--email",
      email,
      "--password",
      password,
      "--verified",
      "--name",
      "Élise",
      "--card",
      "4242424242424242",
    );
    const purchase = ops(
      "purchase:create-sandbox",
      "--email",
      email,
      "--name",
      "Assistant Serviable",
    ) as { purchase_id: string; grand_total: string; item_title: string };

    await page.goto("/sign-in?callbackUrl=/account/purchases");
    await signIn(page, email, password);
    // The sign-in page's own URL ends with its callbackUrl: wait for the page itself (in English first).
    await expect(page.getByRole("heading", { name: "Assistant purchases" })).toBeVisible({
      timeout: 15_000,
    });
    // The person's saved language travels in the `lang` cookie (app/_i18n/request.ts).
    await page.context().addCookies([{ name: "lang", value: "fr", url: baseURL! }]);
    await page.reload();

    await expect(page.getByRole("heading", { name: "Achats des assistants" })).toBeVisible();
    const row = page.locator(`[data-purchase-id="${purchase.purchase_id}"]`);
    await expect(row.getByTestId("purchase-status")).toHaveText("Retenue");
    await expect(row.getByTestId("purchase-items")).toContainText(purchase.item_title);
    const [whole, cents] = purchase.grand_total.split(".");
    await expect(row.getByTestId("purchase-total")).toHaveText(
      new RegExp(`^${whole.replace(/\B(?=(\d{3})+$)/g, "\\s")},${cents}\\s\\$$`),
    );
    await expect(row.getByTestId("charges-in")).toContainText(/dans 23 heures/);
    await expect(row.getByRole("button", { name: "Annuler l’achat" })).toBeVisible();
    await expect(page.getByText("Fuseau horaire : heure de l’Est.")).toBeVisible();
    await snap(page, testInfo, "purchase-held-fr");
  });

  test("a refund the bank sent back: what reached the card, what did not, and what happens next", async ({
    page,
  }, testInfo) => {
    const { email } = await signInNewShopper(page, {
      prefix: "purchases-sent-back",
      name: "Noor",
      path: "/account/purchases",
      extra: ["--card", "4242424242424242"],
    });
    const purchase = ops(
      "purchase:create-sandbox",
      "--email",
      email,
      "--name",
      "Helpful Assistant",
    ) as {
      purchase_id: string;
    };
    expect(ops("sandbox:purchase-due", purchase.purchase_id)).toMatchObject({ status: "paid" });
    const refund = (amount: string) =>
      (
        ops(
          "purchase:refund",
          purchase.purchase_id,
          "--amount",
          amount,
          "--reason",
          "Returned",
        ) as {
          refunds: { refund_id: string }[];
        }
      ).refunds[0].refund_id;
    const first = refund("2.00");
    refund("1.00");
    expect(
      ops("sandbox:refund-sent-back", first, "--reason", "expired_or_canceled_card"),
    ).toMatchObject({ status: "failed" });

    await page.reload();
    const row = page.locator(`[data-purchase-id="${purchase.purchase_id}"]`);
    await expect(row.getByTestId("purchase-status")).toHaveText("Paid");
    await expect(row.getByTestId("refunded")).toHaveText("$1.00");
    await expect(row.getByTestId("refund-sent-back")).toContainText(
      "Your bank sent back the refund of $2.00",
    );
    await expect(row.getByTestId("refund-sent-back")).toContainText(
      "the card is expired or cancelled",
    );
    await expect(row.getByTestId("refund-sent-back")).toContainText("The money is still yours");
    await snap(page, testInfo, "purchase-refund-sent-back");
  });
});
