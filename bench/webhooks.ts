/**
 * `npm run bench -- webhooks`: 1,000 checkouts paid in a burst, each client's checkout.paid event
 * fanned out to 3 endpoints (3 loopback receivers verifying every signature with the
 * standardwebhooks package). Prints p50/p95/max of the delay from the change (the event's
 * timestamp, taken in the paying transaction) to the receiver's 200, and checks that no
 * webhook-id is lost or duplicated. In-process, on a fresh local database: the route handlers
 * make the checkouts, the hosted page's pay procedure pays them (sandbox processor), and the
 * sender runs as the in-process sweep runs it (its 200 ms loop).
 */
import { machine } from "./lib/machine";
import { percentile, printTable, writeResult } from "./lib/report";
import { withScratchDatabase } from "./lib/database";

const checkouts = 1000;
const endpointsPerClient = 3;
const checkoutsPerClient = 50;

/** Runs `work` on every item with at most `limit` at once. */
const eachLimited = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
};

export const benchWebhooks = async () => {
  const name = `shopping_bench_webhooks_${process.pid}`;
  await withScratchDatabase(name, async () => {
    const { createItem, createPartner, createStore } = await import("../prisma/factories");
    const { createQuoteVia, createCheckoutVia } =
      await import("../server/testing/checkout-fixtures");
    const { startReceiver } = await import("../server/testing/webhook-receiver");
    const { createEndpoint } = await import("../server/partners/webhooks/endpoints");
    const { pageCaller } = await import("../server/testing/page-caller");
    const { startSweep } = await import("../server/edges/jobs/sweep");
    const { dueWork } = await import("../server/edges/jobs/due-work");
    const { db } = await import("../server/platform/db");

    const receivers = await Promise.all([4172, 4173, 4174].map((port) => startReceiver({ port })));
    const secrets: string[][] = receivers.map(() => []);
    const store = await createStore();
    const items = [];
    for (let index = 0; index < checkouts; index++)
      items.push(await createItem({ storeId: store.id, priceCents: 2500 + index }));
    // Partners may send 120 requests a minute: one client per 50 checkouts, each with its 3 endpoints.
    const tokens: string[] = [];
    for (let client = 0; client < checkouts / checkoutsPerClient; client++) {
      const partner = await createPartner();
      tokens.push(await partner.token());
      for (let endpoint = 0; endpoint < endpointsPerClient; endpoint++) {
        const created = await createEndpoint(
          db(),
          { clientId: partner.client.id, personId: null },
          {
            url: receivers[endpoint].url,
            eventTypes: ["checkout.paid"],
            maxPerOwner: 10,
            now: new Date(),
          },
        );
        secrets[endpoint].push(created.secret);
      }
    }
    receivers.forEach((receiver, index) => receiver.setSecrets(secrets[index]));
    const ids: string[] = new Array(checkouts);
    await eachLimited(items, 8, async (item, index) => {
      const token = tokens[Math.floor(index / checkoutsPerClient)];
      const quote = await createQuoteVia(token, [{ item_id: item.id }]);
      const { response, text } = await createCheckoutVia(token, {
        quote_id: quote.body.quote_id,
        email: "bench@example.ca",
      });
      if (response.status !== 201) throw new Error(`checkout ${response.status}: ${text}`);
      ids[index] = JSON.parse(text).checkout_id;
    });
    console.log(
      `${checkouts} checkouts awaiting payment, ${tokens.length} clients × ${endpointsPerClient} endpoints; paying in a burst`,
    );

    const sweep = startSweep({ tasks: dueWork.filter((task) => task.name === "deliver-webhooks") });
    const started = Date.now();
    const page = pageCaller();
    let payRetries = 0;
    await eachLimited(ids, 4, async (id) => {
      // A payment whose transaction times out on a loaded box rolls back (no event): pay again, as a shopper would.
      for (let attempt = 1; ; attempt++) {
        try {
          const outcome = await page.checkoutPage.pay({
            id,
            accept_terms: true,
            method: {
              type: "card",
              number: "4242 4242 4242 4242",
              exp_month: 12,
              exp_year: 2034,
              cvc: "123",
            },
          });
          if (outcome.outcome !== "paid")
            throw new Error(`checkout ${id}: ${JSON.stringify(outcome)}`);
          return;
        } catch (error) {
          if (attempt >= 5) throw error;
          payRetries++;
        }
      }
    });
    const burstSeconds = (Date.now() - started) / 1000;
    const expected = checkouts * endpointsPerClient;
    const unique = () =>
      receivers.reduce(
        (sum, receiver) => sum + new Set(receiver.received.map((entry) => entry.id)).size,
        0,
      );
    const deadline = Date.now() + 120_000;
    while (unique() < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // A little longer, so a late duplicate would be seen.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await sweep.stop();

    const received = receivers.flatMap((receiver) => receiver.received);
    const delays = received.map((entry) => entry.receivedAt - Date.parse(entry.payload.timestamp));
    const duplicates = received.length - unique();
    const lost = expected - unique();
    const unverified = received.filter((entry) => !entry.verified).length;
    const result = {
      name: "webhooks",
      checkouts,
      endpointsPerClient,
      clients: tokens.length,
      burstSeconds,
      payRetries,
      delayMs: {
        p50: percentile(delays, 0.5),
        p95: percentile(delays, 0.95),
        max: Math.max(...delays),
      },
      received: received.length,
      expected,
      lost,
      duplicates,
      unverified,
      measuredAt: new Date().toISOString(),
      machine: machine(),
    };
    printTable("Webhooks: checkout paid -> receiver's 200 (ms)", [
      {
        deliveries: expected,
        received: received.length,
        lost,
        duplicated: duplicates,
        unverified,
        "burst (s)": burstSeconds,
        p50: result.delayMs.p50,
        p95: result.delayMs.p95,
        max: result.delayMs.max,
      },
    ]);
    console.log(`written ${writeResult("webhooks", result)}`);
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await db().$disconnect();
    if (lost || duplicates || unverified) process.exitCode = 1;
  });
};
