/**
 * [DASHBOARD] assistant purchases in Debian chromium: a person with a held purchase (made through
 * `ops purchase:create-sandbox`, a real sandbox hold) sees it at /account/purchases with its
 * status, store, total, assistant and time left, cancels it through @trpc/client, and sees it
 * cancelled in place without a reload, and still after one.
 */
import { expect, test } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { signIn, snap, unique } from "../fixtures/shoppers";

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
    ) as { purchase_id: string; status: string; grand_total: string; store: string };
    expect(purchase.status).toBe("held");

    await page.goto("/sign-in?callbackUrl=/account/purchases");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/purchases$/, { timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Assistant purchases" })).toBeVisible();

    const row = page.locator(`[data-purchase-id="${purchase.purchase_id}"]`);
    await expect(row.getByTestId("purchase-status")).toHaveText("Held");
    await expect(row).toContainText(purchase.store);
    await expect(row).toContainText("Helpful Assistant");
    await expect(row).toContainText(
      `$${purchase.grand_total.replace(/\B(?=(\d{3})+\.)/g, ",")} CAD`,
    );
    await expect(row.getByTestId("charges-in")).toContainText(/23 h \d+ min/);
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
});
