/**
 * [WATCHES] A watch that explains itself (1.9.0): the assistant previews a watch (condition by
 * condition, nothing set), sets it with max_total too small for shipping and tax, the price drops
 * through the sandbox helper and the service evaluates it without buying; the evaluation is listed
 * over the API, and /account/watches shows the last evaluation and why it did not buy, read in a
 * browser with JavaScript switched off (the page is server-rendered).
 */
import { expect, test } from "../fixtures/api-client";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { signedInWithoutScript, snap } from "../fixtures/shoppers";

test.describe("[WATCHES] evaluations", () => {
  test("the preview, an evaluation over max_total, and the dashboard saying why it did not buy", async ({
    browser,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Noor");
    const { picked, target } = await directItem(partner.api, 7); // a page no other spec buys from
    const assistant = await linkAssistant(playwright, baseURL!, person);
    const body = {
      catalog_item_id: String(picked.item_id),
      size: picked.size ?? null,
      max_price: target,
      max_total: target,
    };

    // The preview: the price is over max_price today; nothing is set.
    const previewed = await assistant.post("/api/v1/price-watches/preview", { data: body });
    expect(previewed.status()).toBe(200);
    const preview = await previewed.json();
    expect(preview.would_buy_now).toBe(false);
    expect(
      preview.conditions.find(
        (condition: { condition: string }) => condition.condition === "max_price",
      ),
    ).toMatchObject({ passed: false, max_price: { amount: target } });
    expect((await (await assistant.get("/api/v1/price-watches")).json()).data).toEqual([]);

    const set = await assistant.post("/api/v1/price-watches", { data: body });
    expect(set.status()).toBe(201);
    const watch = await set.json();

    // The price drops to max_price, but shipping and tax put the total over max_total.
    const drop = await partner.api.post(`/api/v1/sandbox/items/${picked.item_id}/price`, {
      data: { price: target },
    });
    expect(drop.status()).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await (
              await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}/evaluations`)
            ).json()
          ).data,
        { timeout: 20_000 },
      )
      .toEqual([
        expect.objectContaining({
          price: { amount: target, currency: "CAD" },
          outcome: "not_bought",
          failed_condition: "max_total",
        }),
      ]);

    // The person signs in over HTTP; the list is read in a browser with JavaScript off.
    const noScript = await signedInWithoutScript(
      { browser, playwright, baseURL: baseURL! },
      person,
    );
    const plain = await noScript.newPage();
    await plain.goto("/account/watches");
    const row = plain.locator(`[data-watch-id="${watch.price_watch_id}"]`);
    await expect(row.getByTestId("watch-status")).toHaveText("Watching");
    await expect(row.getByTestId("watch-last-evaluation")).toContainText("total");
    await expect(row.getByTestId("watch-why-not")).toHaveText(
      "The total with shipping and tax was over your maximum total.",
    );
    await snap(plain, testInfo, "watch-last-evaluation");
    await noScript.close();
    await assistant.dispose();
  });
});
