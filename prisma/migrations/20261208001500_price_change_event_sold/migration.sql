-- Hand-written check (Prisma cannot declare it; ADR 0012): a `sold` catalogue event, written in the
-- statement that marks an item sold (its last stock paid for, or sold elsewhere), ends its live
-- price watches and alerts (ADR 0070). Every existing row has one of the three earlier kinds.
ALTER TABLE "price_change_events" DROP CONSTRAINT "price_change_events_kind_check";
ALTER TABLE "price_change_events" ADD CONSTRAINT "price_change_events_kind_check" CHECK ("kind" IN ('price', 'listed', 'available', 'sold'));
