/**
 * [WATCHES] A price watch end to end against the running service: an assistant registered at the
 * agent door is linked by a sandbox person (purchase:write ticked on the consent page), sets a
 * watch over the API, the item's price drops through the sandbox helper, the service's sweep acts
 * on the recorded change and buys once; the person sees it bought at /account/watches in
 * Debian chromium and reads the "bought" email that went out over SMTP to the capture.
 */
import { expect, test } from "../fixtures/api-client";
import { waitForEmail } from "../fixtures/checkout";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { signIn, snap } from "../fixtures/shoppers";

test.describe("[WATCHES] price watches", () => {
  test("a watch set over the API buys after a sandbox price drop; the dashboard and the email show it", async ({
    page,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Wren");
    const { email, password } = person;
    const { picked, price, target, title } = await directItem(partner.api);
    const assistant = await linkAssistant(playwright, baseURL!, person);

    // The watch, over the API.
    const set = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: target,
        max_total: 1000,
        days: 3,
      },
    });
    expect(set.status()).toBe(201);
    const watch = await set.json();
    expect(watch).toMatchObject({
      status: "active",
      max_price: { amount: target },
      current_price: { amount: price },
    });
    await waitForEmail(partner.api, email, /set a price watch for you/);

    // The store drops the price (sandbox helper); the service acts on the recorded change.
    const drop = await partner.api.post(`/api/v1/sandbox/items/${picked.item_id}/price`, {
      data: { price: target },
    });
    expect(drop.status()).toBe(200);
    await expect
      .poll(
        async () =>
          (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json())
            .status,
        { timeout: 20_000 },
      )
      .toBe("fulfilled");
    const bought = await (
      await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)
    ).json();
    expect(bought).toMatchObject({ outcome: "bought", current_price: { amount: target } });
    expect(bought.order_number).toMatch(/^SO-/);

    // The person reads the email the service sent over SMTP.
    const mail = await waitForEmail(partner.api, email, /Your price watch bought/);
    expect(mail.text).toContain(bought.order_number);
    expect(mail.text).toContain(title);
    expect(mail.text).toContain(`/purchases/${bought.purchase_id}/cancel?token=`);

    // And sees it in the dashboard.
    await page.goto("/sign-in?callbackUrl=/account/watches");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/watches$/, { timeout: 15_000 });
    const row = page.locator(`[data-watch-id="${watch.price_watch_id}"]`);
    await expect(row.getByTestId("watch-status")).toHaveText("Bought");
    await expect(row.getByTestId("watch-order")).toHaveText(bought.order_number);
    await expect(row).toContainText("Deal Finder");
    await expect(row.getByRole("button", { name: "Cancel watch" })).toHaveCount(0);
    await snap(page, testInfo, "watch-bought");
    await assistant.dispose();
  });

  test("the dashboard cancels an active watch through @trpc/client", async ({
    page,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Ira");
    const { email, password } = person;
    const { picked, target, title } = await directItem(partner.api, 2);
    const assistant = await linkAssistant(playwright, baseURL!, person);
    const set = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: target,
        max_total: 1000,
      },
    });
    expect(set.status()).toBe(201);
    const watch = await set.json();

    await page.goto("/sign-in?callbackUrl=/account/watches");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/watches$/, { timeout: 15_000 });
    const row = page.locator(`[data-watch-id="${watch.price_watch_id}"]`);
    await expect(row.getByTestId("watch-status")).toHaveText("Watching");
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.cancelMyWatch") && request.method() === "POST",
    );
    await row.getByRole("button", { name: "Cancel watch" }).click();
    await mutation;
    await expect(page.getByText("The watch is cancelled")).toBeVisible();
    await expect(row.getByTestId("watch-status")).toHaveText("Cancelled");
    await snap(page, testInfo, "watch-cancelled");

    // The same list in French (the saved-language cookie): translated, times in the person's zone named once.
    await page.context().addCookies([{ name: "lang", value: "fr", url: baseURL! }]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Surveillances de prix");
    await expect(row.getByTestId("watch-status")).toHaveText("Annulée");
    await expect(row.getByRole("heading", { level: 2 })).toHaveText(title);
    await expect(row).toContainText("Raison");
    await expect(page.getByText(/Fuseau horaire.*heure de l’Est/)).toHaveCount(1);
    await snap(page, testInfo, "watch-cancelled-fr");
    expect(
      (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json()).status,
    ).toBe("cancelled");
    await assistant.dispose();
  });
});
