/**
 * Writes emails into the outbox, inside the caller's transaction, so an email exists exactly when
 * the change that causes it commits. `dedupeKey` makes a retried step write it once.
 */
import { randomId } from "../../core/ids";
import type { Sql } from "../sql";
import type { TemplateName } from "../../../emails/render";

export type OutgoingEmail = {
  to: string;
  template: TemplateName;
  props: Record<string, unknown>;
  dedupeKey?: string;
};

/** Adds an email to the outbox (a no-op when an email with the same dedupeKey exists). Raw SQL, so it runs in any transaction (server/platform/sql.ts). */
export const enqueueEmail = async (tx: Sql, email: OutgoingEmail) => {
  // Stamped with this process's clock, as the rows it is compared with (not the database's
  // transaction start, which precedes a person created earlier in the same transaction).
  const now = new Date();
  await tx.$executeRaw`
    INSERT INTO email_messages (id, "to", template, props, dedupe_key, next_attempt_at, created_at)
    VALUES (${randomId("eml_")}, ${email.to}, ${email.template}, ${JSON.stringify(email.props)}::jsonb, ${email.dedupeKey ?? null}, ${now}, ${now})
    ON CONFLICT DO NOTHING`;
};
