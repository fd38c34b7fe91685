/**
 * Whether an assistant may buy with POST /purchases (rule 1 and the per-assistant switch): only an
 * agent registered at /oauth/register/agent, and only while purchases are switched on for it. The
 * switch (`api_clients.purchases_enabled`) is null until an operator sets it with
 * `npm run ops -- client:set ID --purchases on|off`; null means the environment's default: on in
 * the sandbox (every registered assistant can try purchases), off in production (an operator
 * switches each assistant on after review).
 */
import { currentEnvironment } from "../auth";

export type PurchaseSwitchClient = { kind: string; purchasesEnabled: boolean | null };

export const agentPurchasesOn = (client: PurchaseSwitchClient) =>
  client.kind === "agent" && (client.purchasesEnabled ?? currentEnvironment() === "sandbox");
