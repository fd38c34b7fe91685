import { requirePersonGrant } from "../platform/trpc/admission";
import type { Actor } from "../platform/trpc/context";

/** The person behind a linked-account token; 403 for a client-credentials token (no person). */
export const linkedPersonId = (actor: Actor) => requirePersonGrant(actor, "orders:read").personId;
