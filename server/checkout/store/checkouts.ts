/**
 * Checkout store: checkouts and their lines. Prisma (ADR 0103): a checkout's reads and writes are a
 * handful per request on paths nobody measured as hot, and the transactions they run in are
 * Prisma's (the idempotency claim of POST /checkout/sessions, the hosted page's payment). Raw SQL
 * where Prisma has no form: row locks, SKIP LOCKED, advisory locks, aggregates over the lines.
 */
import type { Prisma } from "../../generated/prisma/client";
import type { Db, Tx } from "../../platform/db";

const checkoutSelect = {
  id: true,
  clientId: true,
  personId: true,
  email: true,
  status: true,
  selections: true,
  expiresAt: true,
  orderNumber: true,
  closedReason: true,
  subtotalCents: true,
  discountCents: true,
  shippingCents: true,
  taxCents: true,
  grandTotalCents: true,
  createdAt: true,
  paidAt: true,
  quote: { select: { snapshot: true, address: true } },
} satisfies Prisma.CheckoutSelect;

export type CheckoutRow = Prisma.CheckoutGetPayload<{ select: typeof checkoutSelect }>;

/** Who may see a checkout: its owner columns, or nothing for the system actor (server/checkout/ownership.ts). */
export type OwnerFilter = { clientId?: string; personId?: string | null };

/** The checkout `id` if `owner` owns it. */
export const findOwnedCheckout = (
  db: Db | Tx,
  id: string,
  owner: OwnerFilter,
): Promise<CheckoutRow | null> =>
  db.checkout.findFirst({ where: { id, ...owner }, select: checkoutSelect });

/** The checkout as the hosted page shows it (the id in the link is the capability). */
export const findCheckoutForPage = (db: Db, id: string) =>
  db.checkout.findUnique({
    where: { id },
    select: { ...checkoutSelect, firstName: true, lastName: true },
  });

/** A checkout as GET /checkout/sessions/{id} answers it (the webhook event's payload). */
export const readCheckout = (tx: Db | Tx, id: string): Promise<CheckoutRow> =>
  tx.checkout.findUniqueOrThrow({ where: { id }, select: checkoutSelect });

/** A checkout's status and due time (null when there is no such checkout). */
export const findCheckoutDue = (db: Db, id: string) =>
  db.checkout.findUnique({ where: { id }, select: { status: true, expiresAt: true } });

export type NewCheckout = Omit<Prisma.CheckoutUncheckedCreateInput, "lines"> & {
  lines: Prisma.CheckoutLineCreateManyCheckoutInput[];
};

/** Writes a checkout and its lines. */
export const insertCheckoutRow = (tx: Tx, checkout: NewCheckout) =>
  tx.checkout.create({
    data: { ...checkout, lines: { createMany: { data: checkout.lines } } },
  });

/**
 * The one statement that changes a checkout's status (server/checkout/checkout-transitions.ts is
 * its one caller): moves the checkouts of `ids` that are in a status of `from` (and due, when
 * `dueBy` is given) to `to`, with `data`; returns the rows it moved.
 */
export const moveCheckoutRows = (
  tx: Tx,
  move: {
    ids: readonly string[];
    from: readonly CheckoutRow["status"][];
    to: CheckoutRow["status"];
    dueBy?: Date;
    data: Prisma.CheckoutUpdateManyMutationInput;
  },
) =>
  tx.checkout.updateManyAndReturn({
    where: {
      id: { in: [...move.ids] },
      status: { in: [...move.from] },
      ...(move.dueBy ? { expiresAt: { lte: move.dueBy } } : {}),
    },
    data: { status: move.to, ...move.data },
    select: { id: true, clientId: true, personId: true },
  });

/**
 * Locks up to `limit` checkouts in a status of `from` that are due at `now`, soonest first. SKIP
 * LOCKED leaves rows another instance, or a payment being finalised, holds.
 */
export const lockDueCheckouts = async (
  tx: Tx,
  options: { from: readonly string[]; now: Date; limit: number },
) =>
  (
    await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM checkouts WHERE status = ANY(${[...options.from]}::"CheckoutStatus"[]) AND expires_at <= ${options.now}
      ORDER BY expires_at LIMIT ${options.limit} FOR UPDATE SKIP LOCKED`
  ).map((row) => row.id);

/** Locks the checkout's row and reads what paying for it needs (null when there is no such checkout). */
export const lockCheckoutRow = async (tx: Tx, id: string) => {
  await tx.$queryRaw`SELECT id FROM checkouts WHERE id = ${id} FOR UPDATE`;
  return tx.checkout.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      expiresAt: true,
      grandTotalCents: true,
      email: true,
      personId: true,
      firstName: true,
      orderNumber: true,
      paidPaymentId: true,
      buyerLanguage: true,
    },
  });
};

/** Records the language the buyer is paying in (the last attempt's page wins). */
export const writeBuyerLanguage = (tx: Tx, id: string, language: "en" | "fr") =>
  tx.checkout.update({ where: { id }, data: { buyerLanguage: language }, select: { id: true } });

/**
 * Who reads a checkout's emails and how: the language it was paid in, its person, and the
 * province it ships to (its zone). Null when there is no such checkout.
 */
export const readCheckoutReader = (tx: Db | Tx, id: string) =>
  tx.checkout.findUnique({
    where: { id },
    select: { buyerLanguage: true, personId: true, quote: { select: { address: true } } },
  });

/** The checkout's chosen shipping and its quote's snapshot and address. */
export const readCheckoutQuote = (tx: Tx, id: string) =>
  tx.checkout.findUniqueOrThrow({
    where: { id },
    select: { selections: true, quote: { select: { snapshot: true, address: true } } },
  });

/** Writes new shipping choices and the totals they give. */
export const writeSelections = (
  tx: Tx,
  id: string,
  choice: Pick<
    Prisma.CheckoutUpdateInput,
    | "selections"
    | "subtotalCents"
    | "discountCents"
    | "shippingCents"
    | "taxCents"
    | "grandTotalCents"
  >,
) => tx.checkout.update({ where: { id }, data: choice });

/** The quantities the lines of `checkoutIds` hold, by variant (what closing them gives back). */
export const heldQuantities = async (tx: Tx, checkoutIds: readonly string[]) =>
  (
    await tx.$queryRaw<{ variant_id: number; quantity: number }[]>`
      SELECT variant_id, sum(quantity)::int AS quantity FROM checkout_lines
      WHERE checkout_id = ANY(${[...checkoutIds]}::text[]) GROUP BY variant_id`
  ).map((row) => ({ variantId: row.variant_id, quantity: row.quantity }));

/** The checkout's lines: each item at the price it was quoted. */
export const linePrices = async (tx: Tx, checkoutId: string) =>
  (
    await tx.$queryRaw<{ item_id: number; unit_price_cents: number }[]>`
      SELECT item_id, unit_price_cents FROM checkout_lines WHERE checkout_id = ${checkoutId}`
  ).map((row) => ({ itemId: row.item_id, unitPriceCents: row.unit_price_cents }));

/** The items of the checkout's lines that no checkout awaiting payment holds a unit of. */
export const itemsNoOpenCheckoutHolds = async (tx: Tx, checkoutId: string) =>
  (
    await tx.$queryRaw<{ item_id: number }[]>`
      SELECT DISTINCT l.item_id FROM checkout_lines l WHERE l.checkout_id = ${checkoutId}
        AND NOT EXISTS (SELECT 1 FROM checkout_lines o JOIN checkouts c ON c.id = o.checkout_id WHERE o.item_id = l.item_id AND c.status = 'awaiting_payment')`
  ).map((row) => row.item_id);

/** Records that the checkout's paying attempt could not be captured; false when not paid by it, or already marked. */
export const markCaptureFailed = async (
  tx: Tx,
  options: { checkoutId: string; paymentId: string; now: Date },
) =>
  (
    await tx.checkout.updateMany({
      where: { id: options.checkoutId, paidPaymentId: options.paymentId, captureFailedAt: null },
      data: { captureFailedAt: options.now },
    })
  ).count === 1;

/** Who to tell about the checkout, and what. */
export const readCheckoutNotice = (tx: Tx, id: string) =>
  tx.checkout.findUniqueOrThrow({
    where: { id },
    select: {
      email: true,
      firstName: true,
      orderNumber: true,
      grandTotalCents: true,
      personId: true,
      buyerLanguage: true,
      quote: { select: { address: true } },
    },
  });

/** True when the checkout records `paymentId` as the attempt that paid it. */
export const isPayingAttempt = async (db: Db, payment: { checkoutId: string; paymentId: string }) =>
  (await db.checkout.count({
    where: { id: payment.checkoutId, paidPaymentId: payment.paymentId },
  })) > 0;

/** The checkout's status (undefined when there is no such checkout). */
export const findCheckoutStatus = async (db: Db, id: string) =>
  (await db.checkout.findUnique({ where: { id }, select: { status: true } }))?.status;

/** Serialises, until the transaction ends, the creations that count against `key` (open-checkout caps). */
export const lockOpenCheckoutCount = (tx: Tx, key: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`open-checkouts:${key}`}))`;

export type HeldCheckouts = { count: number; units: number; firstExpiry: Date | null };

/** Open checkouts (and their reserved units) of one owner client id, or of one public caller's address. */
export const heldOpenCheckouts = async (
  tx: Tx,
  where: { clientId: string } | { address: string },
  now: Date,
): Promise<HeldCheckouts> => {
  const [row] =
    "clientId" in where
      ? await tx.$queryRaw<HeldCheckouts[]>`
        SELECT count(DISTINCT c.id)::int AS count, coalesce(sum(l.quantity), 0)::int AS units, min(c.expires_at) AS "firstExpiry"
        FROM checkouts c JOIN checkout_lines l ON l.checkout_id = c.id
        WHERE c.client_id = ${where.clientId} AND c.status = 'awaiting_payment' AND c.expires_at > ${now}`
      : await tx.$queryRaw<HeldCheckouts[]>`
        SELECT count(*)::int AS count, 0 AS units, min(expires_at) AS "firstExpiry"
        FROM checkouts WHERE created_from_address = ${where.address} AND status = 'awaiting_payment' AND expires_at > ${now}`;
  return row;
};
