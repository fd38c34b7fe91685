/**
 * [SEARCH WATCHES] Search watches on the dashboard, in Debian chromium against the running service:
 * an assistant linked by a sandbox person (purchase:write and alerts:write ticked) saves three
 * searches over the API: one that emails, one that buys, one more that emails. A store lists an
 * item for each of the first two (the sandbox helper): the first emails it, the second buys it. The
 * person sees at /account/search-watches each search with its filters, the counts, and the item and
 * order bought; the page reads the same with JavaScript off. Cancel ends the third through
 * @trpc/client, in place; French too.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "../fixtures/api-client";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { clickForMutation, signedInWithoutScript, signIn, snap } from "../fixtures/shoppers";

/** A word no item has (letters only: one search term). */
const word = () =>
  `q${randomBytes(5)
    .toString("hex")
    .replace(/[0-9]/g, (digit) => "ghijklmnop"[Number(digit)])}`;

test.describe("[SEARCH WATCHES] search watches", () => {
  test("the dashboard shows each search with its matches and purchase, and cancels one", async ({
    page,
    browser,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    test.setTimeout(120_000);
    const person = newWatcher("Lena");
    const assistant = await linkAssistant(playwright, baseURL!, person, ["alerts:write"]);
    // A store that lets assistants buy directly (a page no other spec buys from).
    const { store } = await directItem(partner.api, 15);
    const [emailed, bought, spare] = [word(), word(), word()];
    const save = async (body: Record<string, unknown>) => {
      const response = await assistant.post("/api/v1/search-watches", { data: body });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()).search_watch_id as string;
    };
    const notifyId = await save({ mode: "notify", q: emailed, max_price: "500" });
    const buyId = await save({ mode: "buy", q: bought, max_total: 1000 });
    const spareId = await save({
      mode: "notify",
      q: spare,
      size: ["M"],
      min_price: "20",
      max_price: "80",
    });

    // The store lists an item for each of the first two searches.
    for (const title of [`Linen ${emailed} shirt`, `Wool ${bought} scarf`]) {
      const listed = await partner.api.post("/api/v1/sandbox/items", {
        data: { store, title, price: "45.00", sizes: ["M"] },
      });
      expect(listed.status(), await listed.text()).toBe(201);
    }
    const read = async (id: string) => (await assistant.get(`/api/v1/search-watches/${id}`)).json();
    await expect
      .poll(async () => (await read(buyId)).status, { timeout: 30_000 })
      .toBe("fulfilled");
    await expect
      .poll(async () => (await read(notifyId)).recent_matches[0]?.emailed_at ?? null, {
        timeout: 30_000,
      })
      .not.toBeNull();
    const { order_number: order } = await read(buyId);
    expect(order).toMatch(/^SO-/);

    await page.goto("/sign-in?callbackUrl=/account/search-watches");
    await signIn(page, person.email, person.password);
    await expect(page).toHaveURL(/\/account\/search-watches$/, { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search watches");
    await expect(page.getByRole("link", { name: "Search watches" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const rows = page.getByTestId("search-watch");
    await expect(rows).toHaveCount(3);
    await expect(rows.getByRole("heading", { level: 2 })).toHaveText([
      `“${spare}”`,
      `“${bought}”`,
      `“${emailed}”`,
    ]);
    const notifyRow = page.locator(`[data-search-watch-id="${notifyId}"]`);
    const buyRow = page.locator(`[data-search-watch-id="${buyId}"]`);
    const spareRow = page.locator(`[data-search-watch-id="${spareId}"]`);
    await expect(notifyRow.getByTestId("search-status")).toHaveText("Watching");
    await expect(notifyRow).toContainText("Emails you new matches, at most once an hour");
    await expect(notifyRow.getByTestId("search-matches")).toHaveText("1 item");
    await expect(notifyRow.getByTestId("search-emailed")).toHaveText("1 item");
    await expect(buyRow.getByTestId("search-status")).toHaveText("Bought");
    await expect(buyRow).toContainText("Buys the first new match once");
    await expect(buyRow).toContainText("$1,000.00 with shipping and tax");
    await expect(buyRow.getByTestId("search-order")).toContainText(`Order ${order}`);
    await expect(buyRow.getByRole("link", { name: /assistant purchases/ })).toHaveAttribute(
      "href",
      "/account/purchases",
    );
    await expect(buyRow.getByRole("heading", { level: 3 })).toHaveText(`Wool ${bought} scarf`);
    await expect(buyRow.getByRole("button")).toHaveCount(0);
    await expect(spareRow).toContainText("$20.00 to $80.00");
    await expect(spareRow.getByTestId("search-matches")).toHaveText("None yet");
    await snap(page, testInfo, "search-watches");

    // Cancel, in place: the spare search ends; the others are as they were.
    await clickForMutation(
      page,
      spareRow.getByRole("button", { name: "Cancel search watch" }),
      "cancelMySearchWatch",
    );
    await expect(page.getByText("The search watch is cancelled")).toBeVisible();
    await expect(spareRow.getByTestId("search-status")).toHaveText("Cancelled");
    await expect(spareRow.getByRole("button")).toHaveCount(0);
    await expect(notifyRow.getByTestId("search-status")).toHaveText("Watching");
    await snap(page, testInfo, "search-watch-cancelled");
    expect((await read(spareId)).status).toBe("cancelled");

    // In French (the saved-language cookie).
    await page.context().addCookies([{ name: "lang", value: "fr", url: baseURL! }]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recherches surveillées");
    await expect(spareRow.getByRole("heading", { level: 2 })).toHaveText(`« ${spare} »`);
    await expect(spareRow.getByTestId("search-status")).toHaveText("Annulée");
    await expect(buyRow.getByTestId("search-status")).toHaveText("Acheté");
    await expect(
      notifyRow.getByRole("button", { name: "Annuler la recherche surveillée" }),
    ).toBeVisible();
    await expect(page.getByText(/Fuseau horaire/)).toHaveCount(1);
    await snap(page, testInfo, "search-watches-fr");

    // Server-rendered: the same list with JavaScript off.
    const plain = await signedInWithoutScript({ browser, playwright, baseURL: baseURL! }, person);
    const noScript = await plain.newPage();
    await noScript.goto("/account/search-watches");
    await expect(noScript.getByTestId("search-watch")).toHaveCount(3);
    await expect(
      noScript.locator(`[data-search-watch-id="${buyId}"]`).getByTestId("search-order"),
    ).toContainText(order);
    await snap(noScript, testInfo, "search-watches-no-script");
    await plain.close();
    await assistant.dispose();
  });
});
