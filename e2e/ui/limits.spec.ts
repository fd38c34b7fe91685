/**
 * [DASHBOARD] spending limits in Debian chromium: the page saves through @trpc/client at /api/trpc
 * without a reload, keeps the values after one, pauses and resumes, and shows a refused amount's
 * reason next to its field.
 */
import { expect, test } from "@playwright/test";
import { signInNewShopper, snap } from "../fixtures/shoppers";

test.describe("[DASHBOARD] spending limits", () => {
  test("set limits, see them after a reload, pause and resume, and see a field error", async ({
    page,
  }, testInfo) => {
    await signInNewShopper(page, { prefix: "limits", name: "Lina", path: "/account/limits" });
    await expect(page.getByRole("link", { name: "Spending limits" })).toBeVisible();
    const saved = page.getByTestId("saved-limits");
    await expect(saved).toContainText("Not set");
    await expect(
      page.getByText("Assistants cannot buy for you until both limits are set."),
    ).toBeVisible();

    // Saved in place: the page does not navigate (a marker on window survives only without a reload).
    await page.evaluate(() => Object.assign(window, { stillHere: true }));
    await page.getByLabel("Limit per order (CAD)").fill("500");
    await page.getByLabel("Limit per rolling 30 days (CAD)").fill("2000.00");
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.setSpendingLimits") &&
        request.method() === "POST",
    );
    await page.getByRole("button", { name: "Save limits" }).click();
    expect((await mutation).headers()["content-type"]).toContain("application/json");
    await expect(page.getByText("Your spending limits are saved.")).toBeVisible();
    await expect(saved).toContainText("$500.00");
    await expect(saved).toContainText("$2,000.00");
    await expect(page.getByLabel("Limit per order (CAD)")).toHaveValue("500.00");
    expect(
      await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    await snap(page, testInfo, "limits-saved");

    await page.reload();
    await expect(saved).toContainText("$500.00");
    await expect(saved).toContainText("$2,000.00");
    await expect(page.getByLabel("Limit per rolling 30 days (CAD)")).toHaveValue("2000.00");

    await page.getByRole("button", { name: "Pause assistant purchases" }).click();
    await expect(page.getByText("Assistant purchases are paused.")).toBeVisible();
    await expect(page.getByTestId("purchases-state")).toContainText("Paused");
    await page.reload();
    await expect(page.getByTestId("purchases-state")).toContainText("Paused");
    await page.getByRole("button", { name: "Resume assistant purchases" }).click();
    await expect(page.getByText("Assistant purchases are resumed.")).toBeVisible();
    await expect(page.getByTestId("purchases-state")).toContainText("On:");

    await page.getByLabel("Limit per order (CAD)").fill("12.345");
    await page.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Please correct the highlighted fields.")).toBeVisible();
    const perOrder = page.getByLabel("Limit per order (CAD)");
    await expect(perOrder).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#field-limit_per_order-error")).toHaveText(
      "must be an amount in dollars with at most two decimals, like 500.00",
    );
    await expect(saved).toContainText("$500.00");
    await snap(page, testInfo, "limits-field-error");
    await page.reload();
    await expect(saved).toContainText("$500.00");
  });
});
