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

/**
 * Notifications a sale or an announcement sends to many people at once. The sender claims every due
 * email that is not one of these first, so a sale's tens of thousands of notifications never hold
 * back a purchase's copy email (its cancel link), a sign-in link or a receipt (docs/adr/0130).
 */
const bulkTemplates: ReadonlySet<TemplateName> = new Set<TemplateName>([
  "search-watch-matches",
  "price-alert",
  "price-watch-ended",
  "price-watch-group-ended",
  "endpoint-deprecated",
]);

/** Adds an email to the outbox (a no-op when an email with the same dedupeKey exists). Raw SQL, so it runs in any transaction (server/platform/sql.ts). */
export const enqueueEmail = (tx: Sql, email: OutgoingEmail) => enqueueEmails(tx, [email]);

/** `enqueueEmail` of several emails in one statement (the digests of one catalogue event, often many). */
export const enqueueEmails = async (tx: Sql, emails: readonly OutgoingEmail[]) => {
  if (emails.length === 0) return;
  // Stamped with this process's clock, as the rows it is compared with (not the database's
  // transaction start, which precedes a person created earlier in the same transaction).
  const now = new Date();
  await tx.$executeRaw`
    INSERT INTO email_messages (id, "to", template, props, dedupe_key, bulk, next_attempt_at, created_at)
    SELECT id, "to", template, props, dedupe_key, bulk, ${now}, ${now}
    FROM unnest(${emails.map(() => randomId("eml_"))}::text[], ${emails.map((email) => email.to)}::text[],
      ${emails.map((email) => email.template)}::text[], ${emails.map((email) => JSON.stringify(email.props))}::jsonb[],
      ${emails.map((email) => email.dedupeKey ?? null)}::text[],
      ${emails.map((email) => bulkTemplates.has(email.template))}::boolean[]) AS e(id, "to", template, props, dedupe_key, bulk)
    ON CONFLICT DO NOTHING`;
};
