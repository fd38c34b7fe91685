import type { TSavedCard } from "@/server/accounts";

/** How the page names a brand: "Visa", "Mastercard", "American Express", "Discover", "Card". */
const brandLabel = (brand: string) =>
  ({ visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover" })[
    brand
  ] ?? "Card";

/** "Visa •••• 4242". */
export const cardName = (card: TSavedCard) => `${brandLabel(card.brand)} •••• ${card.last4}`;
