-- Custom SQL (Prisma cannot express triggers): the price_watchers counts of the in-memory search
-- index (server/search/memory/watcher-counts.ts) follow price watches and price alerts as the index
-- follows items. Channel `catalog_changes`, payload:
--   watchers:12,15   the live watches or alerts of these items may have changed (reload their counts)
--   watchers:*       more than 500 items in one statement: reload every count
-- One notification per statement (transition tables), sent at commit like the catalogue's.

CREATE FUNCTION catalog_notify_watchers() RETURNS trigger AS $$
DECLARE
  payload text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT CASE WHEN count(DISTINCT item_id) > 500 THEN '*' ELSE string_agg(DISTINCT item_id::text, ',') END INTO payload FROM old_rows;
  ELSE
    SELECT CASE WHEN count(DISTINCT item_id) > 500 THEN '*' ELSE string_agg(DISTINCT item_id::text, ',') END INTO payload FROM new_rows;
  END IF;
  IF payload IS NOT NULL THEN
    PERFORM pg_notify('catalog_changes', 'watchers:' || payload);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- The same three triggers on both tables.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['price_watches', 'price_alerts'] LOOP
    EXECUTE format('CREATE TRIGGER %1$s_notify_insert AFTER INSERT ON %1$s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_watchers()', t);
    EXECUTE format('CREATE TRIGGER %1$s_notify_update AFTER UPDATE ON %1$s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_watchers()', t);
    EXECUTE format('CREATE TRIGGER %1$s_notify_delete AFTER DELETE ON %1$s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_watchers()', t);
  END LOOP;
END
$$;

-- The index's periodic catch-up reads watches and alerts changed since its last run by updated_at
-- (the safety net behind NOTIFY): bump it for plain SQL updates too.
CREATE TRIGGER price_watches_touch_updated_at BEFORE UPDATE ON price_watches
  FOR EACH ROW EXECUTE FUNCTION catalog_touch_updated_at();
CREATE TRIGGER price_alerts_touch_updated_at BEFORE UPDATE ON price_alerts
  FOR EACH ROW EXECUTE FUNCTION catalog_touch_updated_at();
