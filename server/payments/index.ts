/** The processor in use. Only the sandbox exists so far; production would plug a Stripe implementation in here. */
import type { Db } from "../db";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";

export const paymentProvider = (db: Db): PaymentProvider => sandboxProvider(db);
