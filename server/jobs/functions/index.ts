/** Every Inngest function the service serves (app/api/inngest). */
import { expireCheckout } from "./expire-checkout";

export const functions = [expireCheckout];
