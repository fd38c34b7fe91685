-- A match row without foreign keys (docs/adr/0122): each key's check locked the watch's (and the
-- item's) row FOR KEY SHARE, for every row of a sale's million, which dirtied the watches' pages and
-- made multixacts of twenty evaluators' locks (bench: the insert was most of PostgreSQL's time).
-- The insert itself reads the live watch and the item; deleting either deletes its matches here.

-- DropForeignKey
ALTER TABLE "search_watch_matches" DROP CONSTRAINT "search_watch_matches_search_watch_id_fkey";

-- DropForeignKey
ALTER TABLE "search_watch_matches" DROP CONSTRAINT "search_watch_matches_item_id_fkey";

-- CreateIndex: the matcher's refresh reads the watches changed since its cursor (a scan of every watch before).
CREATE INDEX "search_watches_updated_at_idx" ON "search_watches"("updated_at");

-- The cascades the keys made, once per deleting statement.
CREATE FUNCTION search_watch_matches_delete_of_watches() RETURNS trigger AS $$
BEGIN
  DELETE FROM search_watch_matches m USING deleted d WHERE m.search_watch_id = d.id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER search_watches_delete_matches AFTER DELETE ON search_watches
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION search_watch_matches_delete_of_watches();

CREATE FUNCTION search_watch_matches_delete_of_items() RETURNS trigger AS $$
BEGIN
  DELETE FROM search_watch_matches m USING deleted d WHERE m.item_id = d.id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER items_delete_search_watch_matches AFTER DELETE ON items
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION search_watch_matches_delete_of_items();
