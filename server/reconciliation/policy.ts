/**
 * Matching a day's movements, ours and the processor's, one to one (docs/adr/0108), pure. Each side
 * is keyed by the processor's id of the object (a charge's PaymentIntent, the refund, the transfer,
 * the reversal), which we record as it answers; amounts are compared unsigned. A movement of the
 * day is missing when the other side has none within the margin around the day (a capture at
 * 23:59:59 may be the processor's next day); a processor movement of a type we never make (fees,
 * payouts) is left out.
 */
export type MovementType = "charge" | "refund" | "transfer" | "transfer_reversal" | "dispute";

export type Movement = {
  type: MovementType;
  /** The processor's id of the object. */
  objectId: string;
  /** Our id (payment, refund, ledger row), when ours. */
  ourId?: string;
  amountCents: number;
  at: Date;
};

export type Difference = {
  kind: "missing_at_processor" | "missing_in_ledger" | "amount_differs";
  objectType: MovementType;
  processorId: string;
  ourId: string | null;
  ourAmountCents: number | null;
  processorAmountCents: number | null;
};

const keyOf = (movement: Pick<Movement, "type" | "objectId">) =>
  `${movement.type} ${movement.objectId}`;

/** Sums movements of one object (a processor refund we recorded against several orders). */
const byObject = (movements: Movement[]) => {
  const grouped = new Map<string, Movement>();
  for (const movement of movements) {
    const key = keyOf(movement);
    const seen = grouped.get(key);
    grouped.set(
      key,
      seen
        ? { ...seen, amountCents: seen.amountCents + Math.abs(movement.amountCents) }
        : { ...movement, amountCents: Math.abs(movement.amountCents) },
    );
  }
  return grouped;
};

/**
 * The differences of the day [from, to): both sides are given for the day and its margin; a
 * movement outside the day counts only as the match of one inside it.
 */
export const compareMovements = (
  ours: Movement[],
  theirs: Movement[],
  day: { from: Date; to: Date },
) => {
  const inDay = (movement: Movement) => movement.at >= day.from && movement.at < day.to;
  const our = byObject(ours);
  const their = byObject(theirs);
  const differences: Difference[] = [];
  let matched = 0;
  for (const [key, mine] of our) {
    const other = their.get(key);
    if (!other) {
      if (inDay(mine))
        differences.push({
          kind: "missing_at_processor",
          objectType: mine.type,
          processorId: mine.objectId,
          ourId: mine.ourId ?? null,
          ourAmountCents: mine.amountCents,
          processorAmountCents: null,
        });
      continue;
    }
    if (!inDay(mine) && !inDay(other)) continue;
    if (other.amountCents !== mine.amountCents)
      differences.push({
        kind: "amount_differs",
        objectType: mine.type,
        processorId: mine.objectId,
        ourId: mine.ourId ?? null,
        ourAmountCents: mine.amountCents,
        processorAmountCents: other.amountCents,
      });
    else matched++;
  }
  for (const [key, other] of their) {
    if (our.has(key) || !inDay(other)) continue;
    differences.push({
      kind: "missing_in_ledger",
      objectType: other.type,
      processorId: other.objectId,
      ourId: null,
      ourAmountCents: null,
      processorAmountCents: other.amountCents,
    });
  }
  return {
    ours: [...our.values()].filter(inDay).length,
    processors: [...their.values()].filter(inDay).length,
    matched,
    differences,
  };
};

/** The UTC day of `date` as [from, to). */
export const utcDay = (date: Date) => {
  const from = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  return { from, to: new Date(from.getTime() + 86_400_000) };
};
