/**
 * `npx tsx bench/checkout-quote.ts [n]`: times POST /checkout/quotes and POST /checkout/sessions
 * through their route handlers in-process (bearer auth, rate limit, parsing, pricing, one insert;
 * Next's own overhead excluded, ~1 ms per PERFORMANCE.md) on a fresh local database, sequentially.
 */
import { randomUUID } from "node:crypto";
import { withScratchDatabase } from "./lib/database";
import { percentile } from "./lib/report";

const main = async () => {
  const runs = Number(process.argv[2] ?? 500);
  const name = `shopping_bench_${process.pid}`;
  await withScratchDatabase(name, async () => {
    const { createItem, createPartner, createStore } = await import("../prisma/factories");
    const { createQuoteVia, createCheckoutVia } =
      await import("../server/testing/checkout-fixtures");
    // Partners may send 120 requests a minute: a fresh client every 50 runs keeps the bench under it.
    let token = "";
    const stores = [await createStore(), await createStore()];
    const items = [];
    for (let index = 0; index < runs + 3; index++)
      items.push(await createItem({ storeId: stores[index % 2].id, sizes: ["S", "M"] }));
    const quoteMs: number[] = [];
    const checkoutMs: number[] = [];
    for (let run = 0; run < runs + 20; run++) {
      if (run % 50 === 0) token = await (await createPartner()).token();
      const cart = [
        items[run % items.length],
        items[(run + 1) % items.length],
        items[(run + 2) % items.length],
      ].map((item) => ({ item_id: item.id, size: "M" }));
      let started = performance.now();
      const quote = await createQuoteVia(token, cart);
      const quoteTime = performance.now() - started;
      started = performance.now();
      const checkout = await createCheckoutVia(
        token,
        { quote_id: quote.body.quote_id, email: "bench@example.ca" },
        randomUUID(),
      );
      const checkoutTime = performance.now() - started;
      if (quote.response.status !== 201 || checkout.response.status !== 201)
        throw new Error(
          `unexpected ${quote.response.status}/${checkout.response.status}: ${checkout.text}`,
        );
      if (run >= 20) {
        quoteMs.push(quoteTime);
        checkoutMs.push(checkoutTime);
      } // first 20 warm up
      // Give the items back so every quote prices three buyable items.
      const { db } = await import("../server/platform/db");
      await db().$executeRaw`UPDATE variants SET quantity = 1`;
    }
    const line = (label: string, values: number[]) =>
      console.log(
        `${label}: p50 ${percentile(values, 0.5).toFixed(2)} ms, p95 ${percentile(values, 0.95).toFixed(2)} ms (n=${values.length})`,
      );
    line("POST /checkout/quotes (3 items, 2 stores)", quoteMs);
    line("POST /checkout/sessions (reserve 3)", checkoutMs);
    const { db } = await import("../server/platform/db");
    await db().$disconnect();
  });
  process.exit(0);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
