/** The sandbox processor's test cards (Stripe's test-mode numbers, plus one of ours for a bank that answers late). */
export const testCards = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
  requiresAuthentication: "4000002500003155",
  /** The bank does not answer at first: authorize times out (unknown outcome) while the hold really exists; retrieve shows it authorized. */
  answersLate: "4000000000000408",
  /** A slow bank: the hold is placed, and the answer (approved) arrives only after `slowBankAnswerMs`. */
  answersSlowly: "4000000000000093",
} as const;

/** Whether `number` is one of the test cards (the only numbers a sandbox card form, or our server talking to Stripe, takes). */
export const isTestCard = (number: string) =>
  (Object.values(testCards) as string[]).includes(number);

/** How long the slow bank takes to answer: longer than Prisma's 5 s interactive-transaction timeout, so a caller holding a transaction across it fails. */
export const slowBankAnswerMs = 6_000;

/** Luhn checksum, so a mistyped number is refused before it reaches the processor. */
export const isLuhnValid = (digits: string) => {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
};

/** What the sandbox bank answers for a card number: real cards are declined in test mode. */
export const sandboxCardOutcome = (
  number: string,
): { status: "authorized" | "requires_action" | "declined"; declineCode: string | null } => {
  if (
    number === testCards.succeeds ||
    number === testCards.answersLate ||
    number === testCards.answersSlowly
  )
    return { status: "authorized", declineCode: null };
  if (number === testCards.requiresAuthentication)
    return { status: "requires_action", declineCode: null };
  if (number === testCards.declined) return { status: "declined", declineCode: "card_declined" };
  return { status: "declined", declineCode: "test_mode_live_card" };
};
