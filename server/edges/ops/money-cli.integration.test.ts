/** The marketplace-money commands as an operator runs them (docs/adr/0106, 0107): a real process on the same database. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import { settleStoreShares } from "../../payouts";
import { payCheckout } from "../../testing/paid-orders";
import { reconcileDay } from "../../reconciliation";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../../..");
const ops = async (...args: string[]) =>
  (
    await run(
      process.execPath,
      [
        // node with tsx's loader, as `npm start` runs: one process (tsx's CLI would start a second).
        "--import",
        "tsx",
        path.join(root, "server", "edges", "ops", "cli.ts"),
        ...args,
      ],
      { cwd: root, env: process.env },
    )
  ).stdout;
const opsJson = async (...args: string[]) =>
  JSON.parse((await ops(...args, "--json")).trim().split("\n").pop()!);
const refusal = (...args: string[]) =>
  ops(...args).then(
    () => "",
    (error: { stderr: string }) => error.stderr,
  );

describe("npm run ops store:*", () => {
  it("store:connect checks the account with the processor; --disconnect stops the store selling", async () => {
    const store = await createStore({ payoutAccount: null });
    expect(
      await opsJson("store:connect", store.slug, "--stripe-account", "acct_sandbox_demo"),
    ).toEqual({
      slug: store.slug,
      payout_account: "acct_sandbox_demo",
      platform_fee_percent: "0.00",
    });
    expect(
      await refusal("store:connect", store.slug, "--stripe-account", "acct_unknown1"),
    ).toContain("the processor has no connected account acct_unknown1");
    expect(await refusal("store:connect", store.slug, "--stripe-account", "bank 123")).toContain(
      "--stripe-account must be a connected account id",
    );
    expect(
      await refusal("store:connect", "no-such-store", "--stripe-account", "acct_sandbox_x"),
    ).toContain("no store no-such-store");
    expect(await opsJson("store:connect", store.slug, "--disconnect")).toMatchObject({
      payout_account: null,
    });
    expect(
      (await db().store.findUniqueOrThrow({ where: { id: store.id } })).payoutAccount,
    ).toBeNull();
  }, 60_000);

  it("store:fee takes a percent with two decimals at most, from 0 to 100", async () => {
    const store = await createStore();
    expect(await opsJson("store:fee", store.slug, "--percent", "12.5")).toMatchObject({
      platform_fee_percent: "12.50",
    });
    expect((await db().store.findUniqueOrThrow({ where: { id: store.id } })).platformFeeBps).toBe(
      1250,
    );
    for (const bad of ["100.5", "-3", "abc"])
      expect(await refusal("store:fee", store.slug, `--percent=${bad}`)).toContain(
        "--percent must be a number from 0 to 100",
      );
  }, 60_000);

  it("store:statement prints the period's rows and totals, as a table, JSON or CSV", async () => {
    const store = await createStore({ platformFeeBps: 1000 });
    const token = await (await createPartner()).token();
    const { id } = await payCheckout(token, [store], [12_000]);
    await settleStoreShares(db(), { now: new Date(), provider: paymentProvider() });
    const order = await db().order.findFirstOrThrow({ where: { checkoutId: id } });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const period = ["--from", today, "--to", tomorrow];

    const csv = await ops("store:statement", store.slug, ...period, "--csv");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("captured_at,order,kind,items,shipping,tax,fee,net,transfer");
    expect(lines[1]).toContain(`,${order.number},sale,120.00,`);
    expect(lines[1]).toMatch(/,12\.00,[\d.]+,sbtr_/);
    expect(lines.at(-1)).toMatch(/^total,,,120\.00,/);

    const json = await opsJson("store:statement", store.slug, ...period);
    expect(json).toMatchObject({
      store: store.slug,
      from: today,
      to: tomorrow,
      platform_fee_percent: "10.00",
    });
    expect(json.lines).toHaveLength(3);
    expect(await ops("store:statement", store.slug, ...period)).toContain(order.number);
    expect(
      await refusal("store:statement", store.slug, "--from", tomorrow, "--to", today),
    ).toContain("--to must be after --from");
    expect(
      await refusal("store:statement", store.slug, "--from", "yesterday", "--to", today),
    ).toContain("--from must be a date");
  }, 60_000);
});

describe("npm run ops order:refund, order:cancel", () => {
  it("refunds part of an order, refuses without a reason or beyond what is left, then cancels the rest", async () => {
    const token = await (await createPartner()).token();
    const { orders } = await payCheckout(token, [await createStore()], [8_000]);
    const [order] = orders;
    expect(
      await opsJson("order:refund", order.number, "--amount", "10.00", "--reason", "Returned belt"),
    ).toMatchObject({
      order_number: order.number,
      amount: "10.00",
      status: "succeeded",
      refunded: "10.00",
    });
    expect(await refusal("order:refund", order.number, "--amount", "1.00")).toContain(
      "--reason is required",
    );
    expect(
      await refusal("order:refund", order.number, "--amount", "9999.00", "--reason", "Too much"),
    ).toContain("more than what is left");
    expect(
      await refusal("order:refund", order.number, "--amount", "1.234", "--reason", "x y z"),
    ).toContain("--amount");
    const cancelled = await opsJson("order:cancel", order.number, "--reason", "Cannot ship it");
    expect(cancelled).toMatchObject({ cancelled: true, status: "succeeded" });
    expect(cancelled.refunded).toBe(cancelled.order_total);
  }, 60_000);

  it("order:list --refund-sent-back lists the refunds a bank sent back, what each person is owed", async () => {
    const token = await (await createPartner()).token();
    const { orders } = await payCheckout(token, [await createStore()], [4_000]);
    const refunded = await opsJson(
      "order:refund",
      orders[0].number,
      "--amount",
      "15.00",
      "--reason",
      "Returned",
    );
    expect(
      (await opsJson("order:list", "--refund-sent-back")).refunds_sent_back,
    ).not.toContainEqual(expect.objectContaining({ refund_id: refunded.refund_id }));
    // Days later the bank sends it back: the sandbox's bank, as Stripe's charge.refund.updated would tell us.
    expect(
      await refusal("sandbox:refund-sent-back", refunded.refund_id, "--reason", "bogus"),
    ).toContain("--reason must be one of expired_or_canceled_card, lost_or_stolen_card, unknown");
    expect(
      await opsJson(
        "sandbox:refund-sent-back",
        refunded.refund_id,
        "--reason",
        "expired_or_canceled_card",
      ),
    ).toEqual({
      refund_id: refunded.refund_id,
      amount: "15.00",
      status: "failed",
      reason: "expired_or_canceled_card",
    });
    expect(await refusal("sandbox:refund-sent-back", refunded.refund_id)).toContain(
      "only a refund that succeeded can be sent back",
    );
    // The person is told once (the partner's event as from Stripe's: server/refunds/stripe-refunds.integration.test.ts).
    expect(
      await db().emailMessage.count({
        where: { dedupeKey: `refund-failed:${refunded.refund_id}` },
      }),
    ).toBe(1);
    // The money is back with the payment: the whole order can be refunded again, another way.
    const again = await opsJson("order:refund", orders[0].number, "--reason", "Paid back");
    expect(again).toMatchObject({ amount: refunded.order_total, status: "succeeded" });
    // And the sandbox processor's balance lists the failure as Stripe's does: the day matches ours.
    const { processorRefundId } = await db().refund.findUniqueOrThrow({
      where: { id: refunded.refund_id },
    });
    const report = await reconcileDay(db(), paymentProvider(), new Date());
    expect(
      report.differences.filter((difference) =>
        [refunded.refund_id, processorRefundId].some((id) =>
          JSON.stringify(difference).includes(id!),
        ),
      ),
    ).toEqual([]);
    expect(report.matched).toBeGreaterThanOrEqual(3);
    expect((await opsJson("order:list", "--refund-sent-back")).refunds_sent_back).toContainEqual(
      expect.objectContaining({
        refund_id: refunded.refund_id,
        order_number: orders[0].number,
        email: orders[0].email,
        amount: "15.00",
        reason: "expired_or_canceled_card",
        sent_back_at: expect.any(String),
      }),
    );
    expect(await refusal("order:list")).toContain("--refund-sent-back");
  }, 60_000);
});
