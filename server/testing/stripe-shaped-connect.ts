/**
 * Stripe Connect for the Stripe-shaped server (stripe-shaped-server.ts), as Stripe documents it for
 * separate charges and transfers (docs/adr/0106): connected accounts (`GET /v1/accounts/:id`,
 * made by the test with `addAccount`), and transfers (`POST /v1/transfers` with
 * `source_transaction`, `transfer_group` and `metadata`; `GET /v1/transfers/:id`; `GET
 * /v1/transfers?transfer_group=`; `POST` and `GET /v1/transfers/:id/reversals`), and the platform's balance
 * transactions (`GET /v1/balance_transactions`, paged, with `expand[]=data.source`) for every
 * capture, refund, transfer, reversal and dispute (`GET /v1/disputes/:id`; a test opens and closes
 * them with `openDispute` and `closeDispute`). A transfer is refused as Stripe refuses it: an unknown
 * destination, an account whose `transfers` capability is not active, a source charge unknown or
 * not yet captured, or transfers of one charge adding up to more than it brought.
 */
import { randomBytes } from "node:crypto";

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };
type Form = { [key: string]: string | Form };

const text = (value: string | Form | undefined) => (typeof value === "string" ? value : undefined);
const invalid = (message: string, param: string, code?: string): Answer => ({
  status: code === "resource_missing" ? 404 : 400,
  body: { error: { type: "invalid_request_error", message, param, ...(code ? { code } : {}) } },
});

export const stripeShapedConnect = (intents: Map<string, Json>) => {
  const accounts = new Map<string, Json>();
  const transfers: Json[] = [];
  const reversals: Json[] = [];
  const disputes = new Map<string, Json>();
  /** The platform's balance transactions, oldest first, each with its source object. */
  const balance: { transaction: Json; source: Json }[] = [];

  /** A movement of the platform's balance, as Stripe records one for a charge, refund, transfer or reversal. */
  const recordBalance = (type: string, source: Json, amount: number) => {
    balance.push({
      transaction: {
        id: `txn_${randomBytes(12).toString("hex")}`,
        object: "balance_transaction",
        type,
        amount,
        currency: "cad",
        created: Math.floor(Date.now() / 1000),
        source: source.id,
      },
      source,
    });
  };

  /** GET /v1/balance_transactions: newest first, `created[gte|lt]`, `limit`, `starting_after`, `expand[]=data.source`. */
  const listBalance = (url: URL): Answer => {
    const query = url.searchParams;
    const gte = Number(query.get("created[gte]") ?? -Infinity);
    const lt = Number(query.get("created[lt]") ?? Infinity);
    const limit = Math.min(100, Number(query.get("limit") ?? 10));
    const expand = [...query.entries()].some(
      ([key, value]) => key.startsWith("expand") && value === "data.source",
    );
    const matching = balance
      .filter(
        ({ transaction }) =>
          (transaction.created as number) >= gte && (transaction.created as number) < lt,
      )
      .reverse();
    const after = query.get("starting_after");
    const start = after ? matching.findIndex(({ transaction }) => transaction.id === after) + 1 : 0;
    const page = matching.slice(start, start + limit);
    return {
      status: 200,
      body: {
        object: "list",
        url: "/v1/balance_transactions",
        has_more: start + limit < matching.length,
        data: page.map(({ transaction, source }) => ({
          ...transaction,
          source: expand ? source : transaction.source,
        })),
      },
    };
  };

  /** The captured PaymentIntent whose charge is `chargeId`. */
  const intentOfCharge = (chargeId: string) =>
    [...intents.values()].find((intent) => intent.latest_charge === chargeId);

  const createTransfer = (params: Form): Answer => {
    const destination = text(params.destination) ?? "";
    const account = accounts.get(destination);
    if (!account)
      return invalid(`No such destination: '${destination}'`, "destination", "resource_missing");
    if ((account.capabilities as Json).transfers !== "active")
      return invalid(
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        "destination",
        "insufficient_capabilities_for_transfer",
      );
    const amount = Number(text(params.amount));
    if (!Number.isInteger(amount) || amount <= 0)
      return invalid("Invalid positive integer", "amount", "parameter_invalid_integer");
    const chargeId = text(params.source_transaction);
    if (chargeId) {
      const intent = intentOfCharge(chargeId);
      if (!intent || intent.status !== "succeeded")
        return invalid(
          `No such charge: '${chargeId}'`,
          "source_transaction",
          intent ? undefined : "resource_missing",
        );
      const sent = transfers
        .filter((transfer) => transfer.source_transaction === chargeId)
        .reduce((sum, transfer) => sum + (transfer.amount as number), 0);
      if (sent + amount > (intent.amount_received as number))
        return invalid(
          "The amount of the transfers exceeds the amount of the source transaction.",
          "amount",
          "insufficient_funds",
        );
    }
    const transfer: Json = {
      id: `tr_${randomBytes(12).toString("hex")}`,
      object: "transfer",
      amount,
      amount_reversed: 0,
      currency: text(params.currency) ?? "cad",
      destination,
      source_transaction: chargeId ?? null,
      transfer_group: text(params.transfer_group) ?? null,
      metadata: params.metadata ?? {},
      reversed: false,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    transfers.push(transfer);
    recordBalance("transfer", transfer, -amount);
    return { status: 200, body: transfer };
  };

  /** POST /v1/transfers/:id/reversals: takes back part or all of a transfer. */
  const reverse = (transferId: string, params: Form): Answer => {
    const transfer = transfers.find((each) => each.id === transferId);
    if (!transfer) return invalid(`No such transfer: '${transferId}'`, "id", "resource_missing");
    const left = (transfer.amount as number) - (transfer.amount_reversed as number);
    const amount = text(params.amount) === undefined ? left : Number(text(params.amount));
    if (!Number.isInteger(amount) || amount <= 0 || amount > left)
      return invalid(
        "You have attempted to reverse more than the remaining amount of the transfer.",
        "amount",
      );
    const reversal: Json = {
      id: `trr_${randomBytes(12).toString("hex")}`,
      object: "transfer_reversal",
      amount,
      currency: transfer.currency,
      transfer: transfer.id,
      metadata: params.metadata ?? {},
      created: Math.floor(Date.now() / 1000),
    };
    transfer.amount_reversed = (transfer.amount_reversed as number) + amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    reversals.push(reversal);
    recordBalance("transfer_refund", reversal, amount);
    return { status: 200, body: reversal };
  };

  return {
    accounts,
    reversals,
    recordBalance,
    /** A cardholder disputes a captured PaymentIntent: Stripe takes the amount from the balance. */
    openDispute: (paymentIntent: string, amount: number, reason = "fraudulent") => {
      const intent = intents.get(paymentIntent);
      const dispute: Json = {
        id: `du_${randomBytes(12).toString("hex")}`,
        object: "dispute",
        amount,
        currency: "cad",
        charge: intent?.latest_charge ?? null,
        payment_intent: paymentIntent,
        reason,
        status: "needs_response",
        evidence_details: {
          due_by: Math.floor(Date.now() / 1000) + 7 * 86_400,
          has_evidence: false,
        },
        created: Math.floor(Date.now() / 1000),
      };
      disputes.set(dispute.id as string, dispute);
      recordBalance("adjustment", dispute, -amount);
      return dispute;
    },
    /** The bank decides: won gives the amount back to the balance. */
    closeDispute: (id: string, outcome: "won" | "lost") => {
      const dispute = disputes.get(id)!;
      dispute.status = outcome;
      if (outcome === "won") recordBalance("adjustment", dispute, dispute.amount as number);
    },
    /** Differences a test injects: a transaction lost, an amount changed, one that is not ours. */
    balance: {
      drop: (sourceId: string) => {
        const index = balance.findIndex(
          ({ source }) => source.id === sourceId || source.payment_intent === sourceId,
        );
        if (index >= 0) balance.splice(index, 1);
      },
      setAmount: (sourceId: string, amount: number) => {
        const found = balance.find(
          ({ source }) => source.id === sourceId || source.payment_intent === sourceId,
        );
        if (found) found.transaction.amount = amount;
      },
    },
    transfers,
    /** A connected account as Stripe reports it; `transfers: "inactive"` for one still onboarding. */
    addAccount: (id: string, options: { transfers?: "active" | "inactive" } = {}) => {
      const active = (options.transfers ?? "active") === "active";
      accounts.set(id, {
        id,
        object: "account",
        type: "express",
        country: "CA",
        default_currency: "cad",
        charges_enabled: active,
        payouts_enabled: active,
        capabilities: { card_payments: "active", transfers: options.transfers ?? "active" },
      });
    },
    /** A write this module answers, or undefined. */
    write: (path: string, params: Form): Answer | undefined => {
      if (path === "/v1/transfers") return createTransfer(params);
      const reversing = /^\/v1\/transfers\/(\w+)\/reversals$/.exec(path);
      return reversing ? reverse(reversing[1], params) : undefined;
    },
    /** A read this module answers, or undefined. */
    read: (url: URL): Answer | undefined => {
      const accountId = /^\/v1\/accounts\/(\w+)$/.exec(url.pathname)?.[1];
      if (accountId) {
        const account = accounts.get(accountId);
        return account
          ? { status: 200, body: account }
          : invalid(`No such account: '${accountId}'`, "account", "resource_missing");
      }
      const reversalsOf = /^\/v1\/transfers\/(\w+)\/reversals$/.exec(url.pathname)?.[1];
      if (reversalsOf) {
        const data = reversals.filter((each) => each.transfer === reversalsOf);
        return {
          status: 200,
          body: { object: "list", url: url.pathname, has_more: false, data },
        };
      }
      const transferId = /^\/v1\/transfers\/(\w+)$/.exec(url.pathname)?.[1];
      if (transferId) {
        const transfer = transfers.find((each) => each.id === transferId);
        return transfer
          ? { status: 200, body: transfer }
          : invalid(`No such transfer: '${transferId}'`, "id", "resource_missing");
      }
      if (url.pathname === "/v1/balance_transactions") return listBalance(url);
      const disputeId = /^\/v1\/disputes\/(\w+)$/.exec(url.pathname)?.[1];
      if (disputeId) {
        const dispute = disputes.get(disputeId);
        return dispute
          ? { status: 200, body: dispute }
          : invalid(`No such dispute: '${disputeId}'`, "dispute", "resource_missing");
      }
      if (url.pathname === "/v1/transfers") {
        const group = url.searchParams.get("transfer_group");
        const data = transfers.filter((each) => !group || each.transfer_group === group);
        return {
          status: 200,
          body: { object: "list", url: "/v1/transfers", has_more: false, data },
        };
      }
      return undefined;
    },
  };
};
