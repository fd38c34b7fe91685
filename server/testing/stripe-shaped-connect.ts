/**
 * Stripe Connect for the Stripe-shaped server (stripe-shaped-server.ts), as Stripe documents it for
 * separate charges and transfers (docs/adr/0106): connected accounts (`GET /v1/accounts/:id`,
 * made by the test with `addAccount`), and transfers (`POST /v1/transfers` with
 * `source_transaction`, `transfer_group` and `metadata`; `GET /v1/transfers/:id`; `GET
 * /v1/transfers?transfer_group=`). A transfer is refused as Stripe refuses it: an unknown
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
    return { status: 200, body: transfer };
  };

  return {
    accounts,
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
    write: (path: string, params: Form): Answer | undefined =>
      path === "/v1/transfers" ? createTransfer(params) : undefined,
    /** A read this module answers, or undefined. */
    read: (url: URL): Answer | undefined => {
      const accountId = /^\/v1\/accounts\/(\w+)$/.exec(url.pathname)?.[1];
      if (accountId) {
        const account = accounts.get(accountId);
        return account
          ? { status: 200, body: account }
          : invalid(`No such account: '${accountId}'`, "account", "resource_missing");
      }
      const transferId = /^\/v1\/transfers\/(\w+)$/.exec(url.pathname)?.[1];
      if (transferId) {
        const transfer = transfers.find((each) => each.id === transferId);
        return transfer
          ? { status: 200, body: transfer }
          : invalid(`No such transfer: '${transferId}'`, "id", "resource_missing");
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
