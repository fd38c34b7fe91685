import type { TSavedCard } from "@/server/accounts";

/** How the page names a brand: "Visa", "Mastercard", "American Express", "Discover", "Card". */
const brandLabel = (brand: string, other: string) =>
  ({ visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover" })[
    brand
  ] ?? other;

/** "Visa •••• 4242"; an unlisted brand is named `other` (the page's word for a card). */
export const cardName = (card: TSavedCard, other = "Card") =>
  `${brandLabel(card.brand, other)} •••• ${card.last4}`;
