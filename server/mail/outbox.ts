/**
 * Writes emails into the outbox, inside the caller's transaction, so an email exists exactly when
 * the change that causes it commits. `dedupeKey` makes a retried step write it once.
 */
import { randomId } from "../auth/tokens";
import type { Prisma } from "../generated/prisma/client";
import type { TemplateName } from "../../emails/render";

type Writer = { emailMessage: { createMany: (args: { data: Prisma.EmailMessageCreateManyInput[]; skipDuplicates?: boolean }) => Promise<unknown> } };

export type OutgoingEmail = { to: string; template: TemplateName; props: Record<string, unknown>; dedupeKey?: string };

/** Adds an email to the outbox (a no-op when an email with the same dedupeKey exists). */
export const enqueueEmail = async (tx: Writer, email: OutgoingEmail) => {
  await tx.emailMessage.createMany({
    data: [{ id: randomId("eml_"), to: email.to, template: email.template, props: email.props as Prisma.InputJsonValue, dedupeKey: email.dedupeKey }],
    skipDuplicates: true,
  });
};
