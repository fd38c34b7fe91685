/**
 * The most one order may total (core/money.ts maxOrderTotalCents, $10,000,000.00): a quote past it
 * is refused where its totals are made, 422 naming `items`, so no checkout, purchase or watch ever
 * stores a total past PostgreSQL's int4. Before the bound, 22 items at $1,000,000.00 quoted (201,
 * 24,860,070.57) and POST /checkout/sessions answered 500 ("value ... is out of range for type integer").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";

let token: string;
let storeId: number;

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

/** `count` items of one store at the largest price an item may have, $1,000,000.00. */
const millionDollarItems = async (count: number) =>
  Promise.all(
    Array.from({ length: count }, () => createItem({ storeId, priceCents: 100_000_000 })),
  );

describe("the most one order may total", () => {
  it("22 items at $1,000,000.00 are 422 naming items at quote time, never a 500 at checkout", async () => {
    const items = await millionDollarItems(22);
    const quote = await createQuoteVia(
      token,
      items.map((item) => ({ item_id: item.id })),
    );
    expect(quote.response.status).toBe(422);
    expect(quote.body.error.code).toBe("invalid_request");
    expect(quote.body.error.fields.items).toMatch(/must total at most 10000000\.00/);
  });

  it("9 such items in Ontario (9,000,000.00 + 13% HST) go past the bound: 422", async () => {
    const items = await millionDollarItems(9);
    const quote = await createQuoteVia(
      token,
      items.map((item) => ({ item_id: item.id })),
    );
    expect(quote.response.status).toBe(422);
    expect(Object.keys(quote.body.error.fields)).toEqual(["items"]);
  });

  it("one item at $1,000,000.00 ten times over is past the bound too (quantity counts)", async () => {
    const item = await createItem({ storeId, priceCents: 100_000_000, quantity: 10 });
    const quote = await createQuoteVia(token, [{ item_id: item.id, quantity: 10 }]);
    expect(quote.response.status).toBe(422);
    expect(quote.body.error.fields.items).toMatch(/must total at most/);
  });

  it("8 such items (9,040,000.00 and shipping) quote and check out, the total stored exactly", async () => {
    const items = await millionDollarItems(8);
    const quote = await createQuoteVia(
      token,
      items.map((item) => ({ item_id: item.id })),
    );
    expect(quote.response.status).toBe(201);
    const { response, text } = await createCheckoutVia(token, {
      quote_id: quote.body.quote_id,
      email: "ana@example.ca",
    });
    expect(response.status).toBe(201);
    expect(JSON.parse(text).totals.grand_total).toEqual(quote.body.totals.grand_total);
  });
});
