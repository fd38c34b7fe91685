/**
 * Stores get paid (docs/adr/0106): a two-store checkout paid and captured gets one ledger row per
 * store (items, shipping, tax, fee, net) and one transfer per store to its connected account in the
 * sandbox processor's ledger, once however often the sweep runs; a store disconnected since waits,
 * with its reason, and is paid once connected again; the statement adds up.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { paymentProvider } from "../payments";
import { payCheckout } from "../testing/paid-orders";
import { chargeDuePurchases } from "../purchases";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { settleStoreShares } from "./settle-store-shares";
import { statementCells, storeStatement, toCsv } from "./statement";

let token: string;

beforeAll(async () => {
  token = await (await createPartner()).token();
});

/** A paid checkout of one item from each store: its id. */
const payTwoStores = async (stores: { id: number }[], prices: number[]) =>
  (await payCheckout(token, stores, prices)).id;

const settle = () => settleStoreShares(db(), { now: new Date(), provider: paymentProvider() });

const ledgerOf = (checkoutId: string) =>
  db().storeLedgerEntry.findMany({
    where: { order: { checkoutId } },
    include: { order: true, store: true },
    orderBy: { storeId: "asc" },
  });

describe("a two-store checkout, captured", () => {
  it("writes each store's share and transfers it to the store's account, once", async () => {
    const feeStore = await createStore({ platformFeeBps: 1250 });
    const plainStore = await createStore();
    const id = await payTwoStores([feeStore, plainStore], [8999, 4500]);
    const payment = await db().payment.findFirstOrThrow({
      where: { checkoutId: id, status: "captured" },
    });

    await settle();
    await settle();
    const rows = await ledgerOf(id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const order = row.order;
      expect(row.kind).toBe("sale");
      expect(row.paymentId).toBe(payment.id);
      expect(row.itemsCents).toBe(order.subtotalCents - order.discountCents);
      expect(row.shippingCents).toBe(order.shippingCents);
      expect(row.taxCents).toBe(order.taxCents);
      expect(row.transferStatus).toBe("transferred");
      expect(row.transferId).toMatch(/^sbtr_/);
    }
    const [withFee, withoutFee] = rows[0].storeId === feeStore.id ? rows : [...rows].reverse();
    // 12.5% of 89.99 is 11.24875: 11.25, rounded half up.
    expect(withFee.feeCents).toBe(1125);
    expect(withoutFee.feeCents).toBe(0);
    // The stores' nets and the fees are what the person paid, to the cent.
    const paidCents = rows.reduce((sum, row) => sum + row.order.grandTotalCents, 0);
    expect(paidCents).toBe(payment.amountCents);
    expect(rows.reduce((sum, row) => sum + row.netCents + row.feeCents, 0)).toBe(paidCents);

    // The sandbox processor's connected-account ledger: one transfer per store, from this payment.
    const transfers = await db().sandboxTransfer.findMany({
      where: { sourcePaymentId: payment.processorPaymentId! },
      orderBy: { destination: "asc" },
    });
    expect(transfers).toHaveLength(2);
    expect(new Map(transfers.map((t) => [t.destination, t.amountCents]))).toEqual(
      new Map(rows.map((row) => [row.store.payoutAccount!, row.netCents])),
    );
    expect(transfers.every((t) => t.transferGroup === id)).toBe(true);
  });

  it("waits for a store disconnected since, saying why, and pays it once connected", async () => {
    const store = await createStore();
    const other = await createStore();
    const id = await payTwoStores([store, other], [3000, 2000]);
    await db().store.update({ where: { id: store.id }, data: { payoutAccount: null } });

    await settle();
    const waiting = (await ledgerOf(id)).find((row) => row.storeId === store.id)!;
    expect(waiting.transferStatus).toBe("pending");
    expect(waiting.transferReason).toBe("not_connected");
    expect(waiting.nextTransferAt!.getTime()).toBeGreaterThan(Date.now());
    expect((await ledgerOf(id)).find((row) => row.storeId === other.id)!.transferStatus).toBe(
      "transferred",
    );

    await db().store.update({
      where: { id: store.id },
      data: { payoutAccount: `acct_sandbox_${store.slug}` },
    });
    // Due again (the operator's retry, or the delay passed).
    await db().storeLedgerEntry.update({
      where: { id: waiting.id },
      data: { nextTransferAt: null },
    });
    await settle();
    const paid = (await ledgerOf(id)).find((row) => row.storeId === store.id)!;
    expect(paid.transferStatus).toBe("transferred");
    expect(paid.transferReason).toBeNull();
    expect(
      await db().sandboxTransfer.count({ where: { destination: `acct_sandbox_${store.slug}` } }),
    ).toBe(1);
    // What a later retry would ask first: the processor finds the transfer made for the row.
    expect(
      await paymentProvider().findTransfer({ ledgerEntryId: paid.id, transferGroup: id }),
    ).toEqual({ id: paid.transferId });
    expect(
      await paymentProvider().findTransfer({
        ledgerEntryId: waiting.id,
        transferGroup: "chk_other",
      }),
    ).toBeNull();
  });

  it("prints the store's statement with its totals, and the same as CSV", async () => {
    const store = await createStore({ platformFeeBps: 1000, name: 'Store, "quoted"' });
    const other = await createStore();
    const from = new Date(Date.now() - 60_000);
    await payTwoStores([store, other], [2000, 1000]);
    await payTwoStores([store, other], [3000, 1000]);
    await settle();
    const statement = await storeStatement(db(), {
      storeId: store.id,
      from,
      to: new Date(Date.now() + 60_000),
    });
    expect(statement.rows.map((row) => row.order.number).sort()).toEqual(
      (await db().order.findMany({ where: { storeId: store.id } })).map((o) => o.number).sort(),
    );
    expect(statement.rows).toHaveLength(2);
    expect(statement.totals.feeCents).toBe(200 + 300);
    expect(statement.totals.netCents).toBe(
      statement.rows.reduce((sum, row) => sum + row.netCents, 0),
    );
    const cells = statementCells(statement);
    expect(cells[0]).toEqual([
      "captured_at",
      "order",
      "kind",
      "items",
      "shipping",
      "tax",
      "fee",
      "net",
      "transfer",
    ]);
    expect(cells.at(-1)!.slice(0, 1)).toEqual(["total"]);
    expect(cells.at(-1)![6]).toBe("5.00");
    const csv = toCsv(cells);
    expect(csv.split("\r\n")).toHaveLength(cells.length + 1);
    expect(toCsv([["a,b", 'say "hi"']])).toBe('"a,b","say ""hi"""\r\n');
  });

  it("pays the store of an assistant purchase once its hold is charged, not before", async () => {
    const { token } = await agentWithPerson();
    const item = await directItem(6400, { platformFeeBps: 300 });
    const bought = await buy(token, (await quoteOf(token, [item.id])).quote_id);
    expect(bought.status).toBe(201);
    const purchaseId = bought.body.purchase_id as string;
    const rowsOf = () => db().storeLedgerEntry.findMany({ where: { order: { purchaseId } } });
    // Held: nothing is owed yet (the person may still cancel).
    await settle();
    expect(await rowsOf()).toEqual([]);
    // 24 hours later the hold is charged; then the store's share is written and sent.
    await chargeDuePurchases(db(), {
      now: new Date(Date.now() + 25 * 3_600_000),
      provider: paymentProvider(),
    });
    await settle();
    const [row] = await rowsOf();
    const order = await db().order.findFirstOrThrow({ where: { purchaseId } });
    expect(row).toMatchObject({
      kind: "sale",
      storeId: item.storeId,
      itemsCents: 6400,
      feeCents: 192,
      netCents: order.grandTotalCents - 192,
      transferStatus: "transferred",
    });
  });
});
