-- A match row carries its watch's integer key instead of its 29-byte text id (docs/adr/0127): a sale
-- writes a million of these rows, and each is also an entry in two indexes keyed by the watch; the
-- text key made the rows and their index entries two to three times as large (more pages dirtied,
-- more WAL, text comparisons in every descent). Prisma's diff, with the existing rows carried over
-- (the column is filled from the watches before it becomes NOT NULL) and the delete trigger of
-- migration 20261202170805 following the new column.

-- DropIndex
DROP INDEX "search_watch_matches_search_watch_id_emailed_at_idx";

-- AlterTable
ALTER TABLE "search_watches" ADD COLUMN     "seq" SERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "search_watches_seq_key" ON "search_watches"("seq");

-- AlterTable: the new key, filled from the watches (a match whose watch is gone is deleted, as the trigger would have)
ALTER TABLE "search_watch_matches" ADD COLUMN "search_watch_seq" INTEGER;
UPDATE "search_watch_matches" m SET "search_watch_seq" = w."seq" FROM "search_watches" w WHERE w."id" = m."search_watch_id";
DELETE FROM "search_watch_matches" WHERE "search_watch_seq" IS NULL;
ALTER TABLE "search_watch_matches" ALTER COLUMN "search_watch_seq" SET NOT NULL;

-- AlterTable
ALTER TABLE "search_watch_matches" DROP CONSTRAINT "search_watch_matches_pkey",
DROP COLUMN "search_watch_id",
ADD CONSTRAINT "search_watch_matches_pkey" PRIMARY KEY ("item_id", "search_watch_seq");

-- CreateIndex
CREATE INDEX "search_watch_matches_search_watch_seq_emailed_at_idx" ON "search_watch_matches"("search_watch_seq", "emailed_at");

-- The cascade from a deleted watch, by its key.
CREATE OR REPLACE FUNCTION search_watch_matches_delete_of_watches() RETURNS trigger AS $$
BEGIN
  DELETE FROM search_watch_matches m USING deleted d WHERE m.search_watch_seq = d.seq;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
