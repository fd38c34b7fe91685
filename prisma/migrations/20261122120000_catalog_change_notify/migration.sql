-- Custom SQL (Prisma cannot express triggers): tells every service instance which catalogue rows
-- changed, so the in-memory search index of each one (server/search/memory/) reloads them from
-- PostgreSQL, the source of truth. Channel `catalog_changes`, payloads:
--   item:12,15,90   item rows inserted, updated or deleted by one statement
--   item:*          more than 500 rows in one statement: catch up by updated_at and recount
--   store:3,4 / store:*   the same for stores (their open / payment / shipping flags list or hide items)
--   category        the category tree changed (reload it; it is small)
-- Statement-level triggers with transition tables send one notification per statement, so a bulk
-- load does not queue a million notifications. NOTIFY is transactional: listeners hear it at commit.

CREATE FUNCTION catalog_notify_rows() RETURNS trigger AS $$
DECLARE
  payload text;
BEGIN
  -- TG_ARGV[0] is the payload prefix; the transition table is new_rows, or old_rows for DELETE.
  IF TG_OP = 'DELETE' THEN
    SELECT CASE WHEN count(*) > 500 THEN '*' ELSE string_agg(id::text, ',') END INTO payload FROM old_rows;
  ELSE
    SELECT CASE WHEN count(*) > 500 THEN '*' ELSE string_agg(id::text, ',') END INTO payload FROM new_rows;
  END IF;
  IF payload IS NOT NULL THEN
    PERFORM pg_notify('catalog_changes', TG_ARGV[0] || ':' || payload);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER items_notify_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('item');
CREATE TRIGGER items_notify_update AFTER UPDATE ON items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('item');
CREATE TRIGGER items_notify_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('item');

CREATE TRIGGER stores_notify_insert AFTER INSERT ON stores
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('store');
CREATE TRIGGER stores_notify_update AFTER UPDATE ON stores
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('store');
CREATE TRIGGER stores_notify_delete AFTER DELETE ON stores
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rows('store');

CREATE FUNCTION catalog_notify_categories() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', 'category');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER categories_notify_change AFTER INSERT OR UPDATE OR DELETE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_categories();

-- The periodic catch-up (the safety net behind NOTIFY) reads rows by updated_at. Prisma sets it on
-- every update it makes; this also bumps it for plain SQL updates that forget to.
CREATE FUNCTION catalog_touch_updated_at() RETURNS trigger AS $$
BEGIN
  IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER items_touch_updated_at BEFORE UPDATE ON items
  FOR EACH ROW EXECUTE FUNCTION catalog_touch_updated_at();
CREATE TRIGGER stores_touch_updated_at BEFORE UPDATE ON stores
  FOR EACH ROW EXECUTE FUNCTION catalog_touch_updated_at();
