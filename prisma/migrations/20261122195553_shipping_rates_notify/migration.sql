-- Custom SQL (Prisma cannot express triggers): a store sells only while it has a shipping rate
-- (server/domain/store-can-sell.ts), so adding or removing a store's rates lists or hides its items
-- as a change of its own flags does. Notify `catalog_changes` with the stores concerned, in the
-- payload of 20261122120000_catalog_change_notify (`store:3,4`, or `store:*` past 500), one
-- notification per statement.

CREATE FUNCTION catalog_notify_rate_stores() RETURNS trigger AS $$
DECLARE
  payload text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT CASE WHEN count(DISTINCT store_id) > 500 THEN '*' ELSE string_agg(DISTINCT store_id::text, ',') END INTO payload FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT CASE WHEN count(DISTINCT store_id) > 500 THEN '*' ELSE string_agg(DISTINCT store_id::text, ',') END INTO payload FROM old_rows;
  ELSE
    -- An update may move a rate to another store: both stores may change.
    SELECT CASE WHEN count(DISTINCT store_id) > 500 THEN '*' ELSE string_agg(DISTINCT store_id::text, ',') END INTO payload
      FROM (SELECT store_id FROM new_rows UNION SELECT store_id FROM old_rows) changed;
  END IF;
  IF payload IS NOT NULL THEN
    PERFORM pg_notify('catalog_changes', 'store:' || payload);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER shipping_rates_notify_insert AFTER INSERT ON shipping_rates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rate_stores();
CREATE TRIGGER shipping_rates_notify_update AFTER UPDATE ON shipping_rates
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rate_stores();
CREATE TRIGGER shipping_rates_notify_delete AFTER DELETE ON shipping_rates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_rate_stores();
