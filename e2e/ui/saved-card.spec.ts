/**
 * [DASHBOARD] saved card in Debian chromium: the page saves a sandbox test card through
 * @trpc/client at /api/trpc (POST JSON, the number never in a URL), shows only brand and last four
 * after a reload, shows a refused number's reason next to its field, and removes the card.
 */
import { expect, test } from "@playwright/test";
import { signInNewShopper, snap } from "../fixtures/shoppers";

test.describe("[DASHBOARD] saved card", () => {
  test("save 4242 4242 4242 4242, see Visa •••• 4242 after a reload, see a field error, remove it", async ({
    page,
  }, testInfo) => {
    await signInNewShopper(page, { prefix: "card", name: "Cara", path: "/account/card" });
    await expect(page.getByRole("link", { name: "Saved card" })).toBeVisible();
    const saved = page.getByTestId("saved-card");
    await expect(saved).toContainText("No card saved");

    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2030");
    await page.getByLabel("CVC").fill("123");
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.saveCard") && request.method() === "POST",
    );
    await page.getByRole("button", { name: "Save card" }).click();
    expect((await mutation).headers()["content-type"]).toContain("application/json");
    await expect(page.getByText("Visa •••• 4242 is saved.")).toBeVisible();
    await expect(saved).toContainText("Visa •••• 4242");
    await expect(saved).toContainText("Expires 12/2030");
    await expect(page.getByLabel("Card number")).toHaveValue("");
    expect(urls.filter((url) => url.includes("4242"))).toEqual([]);
    await snap(page, testInfo, "card-saved");

    await page.reload();
    await expect(saved).toContainText("Visa •••• 4242");
    await expect(saved).not.toContainText("4242 4242");

    await page.getByLabel("Card number").fill("4242 4242 4242 4241");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2030");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Replace card" }).click();
    await expect(page.getByText("Please correct the highlighted fields.")).toBeVisible();
    await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#field-number-error")).toHaveText(
      "is not a valid card number (check the digits)",
    );
    await expect(saved).toContainText("Visa •••• 4242");
    await snap(page, testInfo, "card-field-error");

    await page.getByRole("button", { name: "Remove card" }).click();
    await expect(page.getByText("Your card is removed.")).toBeVisible();
    await expect(saved).toContainText("No card saved");
    await page.reload();
    await expect(saved).toContainText("No card saved");
  });
});
