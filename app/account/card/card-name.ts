import { brandLabel, type TSavedCard } from "@/server/accounts";

/** "Visa •••• 4242". */
export const cardName = (card: TSavedCard) => `${brandLabel(card.brand)} •••• ${card.last4}`;
