/**
 * How many open checkouts a caller may hold (review M7): each reserves its items for 30 minutes, so
 * without a cap a few callers could hold the quantity-one catalogue. A public MCP caller (no account)
 * may hold 5 per session and MCP_OPEN_CHECKOUTS_PER_ADDRESS per address; a partner client
 * CLIENT_OPEN_RESERVED_UNITS reserved units over all its checkouts (all persons). Past a cap:
 * 429 too_many_open_checkouts, Retry-After the seconds until the first of them expires. Counted in
 * the creating transaction under an advisory lock per counted key, so concurrent creations cannot
 * both pass the last free place.
 */
import type { Tx } from "../platform/db";
import { env } from "../platform/env";
import { AppError } from "../core/errors";
import type { Actor } from "../platform/trpc/context";
import {
  heldOpenCheckouts as held,
  type HeldCheckouts as Held,
  lockOpenCheckoutCount as lock,
} from "./store/checkouts";

/** Open checkouts one public MCP session may hold. */
export const openCheckoutsPerSession = 5;

const refuse = (message: string, held: Held, now: Date, limit: number) => {
  const retryAfter = Math.max(
    1,
    Math.ceil(((held.firstExpiry?.getTime() ?? now.getTime()) - now.getTime()) / 1000),
  );
  return new AppError("too_many_open_checkouts", {
    message: `${message}; pay or cancel one, or retry after the seconds in Retry-After.`,
    retryAfter,
    details: { limit, retry_after: retryAfter },
  });
};

/**
 * Refuses a new checkout of `units` units past the caller's cap; returns the address to record on
 * it (a public caller's), or null. Call inside the transaction that inserts the checkout.
 */
export const checkOpenCheckoutCaps = async (
  tx: Tx,
  options: { actor: Actor; units: number; now: Date },
): Promise<string | null> => {
  const { actor, now } = options;
  if (actor.kind !== "client") return null;
  if (actor.publicAddress !== undefined) {
    const perAddress = env().MCP_OPEN_CHECKOUTS_PER_ADDRESS;
    // Always session first, then address: every creation takes them in the same order (no deadlock).
    await lock(tx, `owner:${actor.clientId}`);
    await lock(tx, `address:${actor.publicAddress}`);
    const session = await held(tx, { clientId: actor.clientId }, now);
    if (session.count >= openCheckoutsPerSession)
      throw refuse(
        `This MCP session already holds ${openCheckoutsPerSession} open checkouts`,
        session,
        now,
        openCheckoutsPerSession,
      );
    const address = await held(tx, { address: actor.publicAddress }, now);
    if (address.count >= perAddress)
      throw refuse(
        `Callers at this address already hold ${perAddress} open checkouts`,
        address,
        now,
        perAddress,
      );
    return actor.publicAddress;
  }
  const perClient = env().CLIENT_OPEN_RESERVED_UNITS;
  await lock(tx, `owner:${actor.clientId}`);
  const client = await held(tx, { clientId: actor.clientId }, now);
  if (client.units + options.units > perClient) {
    throw refuse(
      `This client's open checkouts hold ${client.units} reserved units; at most ${perClient} together`,
      client,
      now,
      perClient,
    );
  }
  return null;
};
