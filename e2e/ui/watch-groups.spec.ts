/**
 * [WATCH GROUPS] Price watches on several items on the dashboard, in Debian chromium against the
 * running service: an assistant linked by a sandbox person (purchase:write ticked) sets two any-of
 * groups over the API, and the person sees them at /account/watch-groups, newest first, each item
 * with its picture, its own price or any price within the total, and its price chart; the page
 * reads the same with JavaScript off. Cancel ends one whole group through @trpc/client (both its
 * items), the other stays; the watches page links an item of a group to this page; French too.
 */
import { expect, test } from "../fixtures/api-client";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { clickForMutation, signedInWithoutScript, signIn, snap } from "../fixtures/shoppers";

const cents = (amount: string) => Math.round(Number(amount) * 100);
const amount = (value: number) => (value / 100).toFixed(2);

test.describe("[WATCH GROUPS] price watches on several items", () => {
  test("the dashboard lists the groups with their items and cancels one whole group", async ({
    page,
    browser,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    // Three items, a linked assistant and two groups before the pages: past the default 60 s on a busy machine.
    test.setTimeout(120_000);
    const person = newWatcher("Mara");
    const assistant = await linkAssistant(playwright, baseURL!, person);
    // Pages no other spec buys from; targets far under the prices, so nothing buys.
    const [first, second, third] = [
      await directItem(partner.api, 13),
      await directItem(partner.api, 14),
      await directItem(partner.api, 16),
    ];
    // The second item has no price of its own: only the total applies, and its price alone is over it.
    const maxTotal = second.target;
    const older = await assistant.post("/api/v1/price-watch-groups", {
      data: {
        alternatives: [
          {
            catalog_item_id: String(first.picked.item_id),
            size: first.picked.size ?? null,
            max_price: amount(Math.min(cents(first.target), cents(maxTotal))),
          },
          { catalog_item_id: String(second.picked.item_id), size: second.picked.size ?? null },
        ],
        max_total: maxTotal,
        days: 3,
      },
    });
    expect(older.status(), await older.text()).toBe(201);
    const olderGroup = await older.json();
    const newer = await assistant.post("/api/v1/price-watch-groups", {
      data: {
        alternatives: [
          {
            catalog_item_id: String(third.picked.item_id),
            size: third.picked.size ?? null,
            max_price: third.target,
          },
        ],
        max_total: 1000,
      },
    });
    expect(newer.status(), await newer.text()).toBe(201);
    const newerGroup = await newer.json();

    await page.goto("/sign-in?callbackUrl=/account/watch-groups");
    await signIn(page, person.email, person.password);
    await expect(page).toHaveURL(/\/account\/watch-groups$/, { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Price watches on several items",
    );
    await expect(page.getByRole("link", { name: "Watches on several items" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const groups = page.getByTestId("watch-group");
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(0)).toHaveAttribute("data-group-id", newerGroup.price_watch_group_id);
    const row = page.locator(`[data-group-id="${olderGroup.price_watch_group_id}"]`);
    const other = page.locator(`[data-group-id="${newerGroup.price_watch_group_id}"]`);
    await expect(row.getByRole("heading", { level: 2 })).toHaveText("Price watch on 2 items");
    await expect(row.getByTestId("group-status")).toHaveText("Watching");
    await expect(row).toContainText("Deal Finder");
    // A live group says until when it lasts; once cancelled, when it was set.
    await expect(row.locator("dt", { hasText: /^Until$/ })).toHaveCount(1);
    await expect(row.getByRole("heading", { level: 3 })).toHaveText([first.title, second.title]);
    const items = row.getByTestId("group-alternative");
    await expect(items.nth(1)).toContainText("Any price within the total");
    await expect(items.getByTestId("alternative-status")).toHaveText(["Watching", "Watching"]);
    await expect(items.getByTestId("price-chart").locator("svg")).toHaveCount(2);
    await snap(page, testInfo, "watch-groups");

    // Cancel ends the whole group (both items) in place; the other group stays.
    await clickForMutation(
      page,
      row.getByRole("button", { name: "Cancel watch" }),
      "cancelMyWatchGroup",
    );
    await expect(
      page.getByText("The watch is cancelled: none of its items will be bought."),
    ).toBeVisible();
    await expect(row.getByTestId("group-status")).toHaveText("Cancelled");
    await expect(items.getByTestId("alternative-status")).toHaveText(["Cancelled", "Cancelled"]);
    await expect(row.getByRole("button", { name: "Cancel watch" })).toHaveCount(0);
    await expect(row.locator("dt", { hasText: /^Set$/ })).toHaveCount(1);
    await expect(row.locator("dt", { hasText: /^Until$/ })).toHaveCount(0);
    await expect(other.getByTestId("group-status")).toHaveText("Watching");
    await snap(page, testInfo, "watch-group-cancelled");
    const cancelled = await (
      await assistant.get(`/api/v1/price-watch-groups/${olderGroup.price_watch_group_id}`)
    ).json();
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.alternatives.map((watch: { status: string }) => watch.status)).toEqual([
      "cancelled",
      "cancelled",
    ]);

    // The watches page lists the items too, each linking to its group's page.
    await page.goto("/account/watches");
    const alternative = page.locator(
      `[data-watch-id="${newerGroup.alternatives[0].price_watch_id}"]`,
    );
    await alternative.getByRole("link", { name: "a price watch on several items" }).click();
    await expect(page).toHaveURL(/\/account\/watch-groups$/);

    // In French (the saved-language cookie).
    await page.context().addCookies([{ name: "lang", value: "fr", url: baseURL! }]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Surveillances de prix sur plusieurs articles",
    );
    await expect(row.getByRole("heading", { level: 2 })).toHaveText(
      "Surveillance de prix sur 2 articles",
    );
    await expect(row.getByTestId("group-status")).toHaveText("Annulée");
    await expect(other.getByRole("button", { name: "Annuler la surveillance" })).toBeVisible();
    await expect(page.getByText(/Fuseau horaire/)).toHaveCount(1);
    await snap(page, testInfo, "watch-groups-fr");

    // Server-rendered: the same list with JavaScript off.
    const plain = await signedInWithoutScript({ browser, playwright, baseURL: baseURL! }, person);
    const noScript = await plain.newPage();
    await noScript.goto("/account/watch-groups");
    await expect(noScript.getByTestId("watch-group")).toHaveCount(2);
    await expect(
      noScript
        .locator(`[data-group-id="${olderGroup.price_watch_group_id}"]`)
        .getByRole("heading", { level: 3 }),
    ).toHaveText([first.title, second.title]);
    await expect(noScript.getByTestId("price-chart").locator("svg")).toHaveCount(3);
    await snap(noScript, testInfo, "watch-groups-no-script");
    await plain.close();
    await assistant.dispose();
  });
});
