import { expect, test } from "@playwright/test";

test.describe("[HOME] pages", () => {
  test("the home page says what the service is and links to the reference", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Shopping API" })).toBeVisible();
    await expect(page.getByText("independent Canadian fashion stores")).toBeVisible();
    await testInfo.attach("home", {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    await page.getByRole("link", { name: /API reference/ }).click();
    await expect(page).toHaveURL(/\/docs$/);
  });

  test("/docs renders the API reference from the OpenAPI document, offline", async ({ page }) => {
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));
    await page.goto("/docs");
    await expect(page.getByText("Search items for sale").first()).toBeVisible({ timeout: 30_000 });
    // The first "/products" in the document may be in a part the reference keeps hidden (a
    // collapsed list, the search index): any one shown is what a reader sees.
    await expect(page.getByText("/products").filter({ visible: true }).first()).toBeVisible({
      timeout: 15_000,
    });
    expect(failed.filter((url) => url.startsWith("http://127.0.0.1"))).toEqual([]);
  });
});
