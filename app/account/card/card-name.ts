import { brandLabel, type TSavedCard } from "@/server/accounts/saved-card.schema";

/** "Visa •••• 4242". */
export const cardName = (card: TSavedCard) => `${brandLabel(card.brand)} •••• ${card.last4}`;
