-- The sale's match rows keyed by item first (docs/adr/0126): an event inserts a few hundred rows of one
-- item, which now land on a few adjacent pages of the primary key instead of a random page a watch
-- (the key by watch was 208 MB after a few sales, larger than shared_buffers). The index by watch
-- keeps every read by watch (the email turn, the digest, the view, the cascade from a deleted watch);
-- the cascade from a deleted item now has the key's prefix. Both are built while the table is locked.

-- DropIndex
DROP INDEX "search_watch_matches_emailed_at_search_watch_id_idx";

-- AlterTable
ALTER TABLE "search_watch_matches" DROP CONSTRAINT "search_watch_matches_pkey",
ADD CONSTRAINT "search_watch_matches_pkey" PRIMARY KEY ("item_id", "search_watch_id");

-- CreateIndex
CREATE INDEX "search_watch_matches_search_watch_id_emailed_at_idx" ON "search_watch_matches"("search_watch_id", "emailed_at");
