-- AlterTable
ALTER TABLE "items" ADD COLUMN     "cover_url" TEXT,
ADD COLUMN     "is_available" BOOLEAN NOT NULL DEFAULT false;

-- Custom SQL (Prisma cannot express triggers; ADR 0133). A search page shows each item's cover image
-- and whether it can be bought now; read from item_images and variants, they were two index probes
-- an item, half of the page-row statement's time. The two columns hold them, kept here, the one
-- place the rules are written: the cover is the first cover image by position, then id; an item is
-- available when any of its variants has quantity left. Statement-level triggers with transition
-- tables: one update of the items a statement touched, and only of those whose value changed.

CREATE FUNCTION items_refresh_cover(item_ids int[]) RETURNS void AS $$
  UPDATE items i SET cover_url = c.url
  FROM (SELECT x.id, (SELECT m.url FROM item_images m WHERE m.item_id = x.id AND m.is_cover
                      ORDER BY m.position, m.id LIMIT 1) AS url
        FROM unnest(item_ids) AS x(id)) c
  WHERE i.id = c.id AND i.cover_url IS DISTINCT FROM c.url
$$ LANGUAGE sql;

CREATE FUNCTION items_refresh_availability(item_ids int[]) RETURNS void AS $$
  UPDATE items i SET is_available = c.available
  FROM (SELECT x.id, EXISTS (SELECT 1 FROM variants v WHERE v.item_id = x.id AND v.quantity > 0) AS available
        FROM unnest(item_ids) AS x(id)) c
  WHERE i.id = c.id AND i.is_available IS DISTINCT FROM c.available
$$ LANGUAGE sql;

-- TG_ARGV[0] names the column to refresh; the transition tables are new_rows and / or old_rows.
CREATE FUNCTION items_refresh_card_of_rows() RETURNS trigger AS $$
DECLARE
  item_ids int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT item_id) INTO item_ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT item_id) INTO item_ids FROM old_rows;
  ELSE
    SELECT array_agg(item_id) INTO item_ids FROM (SELECT item_id FROM new_rows UNION SELECT item_id FROM old_rows) u;
  END IF;
  IF item_ids IS NOT NULL THEN
    IF TG_ARGV[0] = 'cover' THEN
      PERFORM items_refresh_cover(item_ids);
    ELSE
      PERFORM items_refresh_availability(item_ids);
    END IF;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER item_images_refresh_cover_insert AFTER INSERT ON item_images
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('cover');
CREATE TRIGGER item_images_refresh_cover_update AFTER UPDATE ON item_images
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('cover');
CREATE TRIGGER item_images_refresh_cover_delete AFTER DELETE ON item_images
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('cover');

CREATE TRIGGER variants_refresh_availability_insert AFTER INSERT ON variants
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('availability');
CREATE TRIGGER variants_refresh_availability_update AFTER UPDATE ON variants
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('availability');
CREATE TRIGGER variants_refresh_availability_delete AFTER DELETE ON variants
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_card_of_rows('availability');

-- The items already listed. Their updated_at stays (it says when the item itself last changed: the
-- catch-up of the search index and the changes feed read it), so the touch trigger is off meanwhile.
ALTER TABLE items DISABLE TRIGGER items_touch_updated_at;
UPDATE items i SET
  cover_url = (SELECT m.url FROM item_images m WHERE m.item_id = i.id AND m.is_cover ORDER BY m.position, m.id LIMIT 1),
  is_available = EXISTS (SELECT 1 FROM variants v WHERE v.item_id = i.id AND v.quantity > 0);
ALTER TABLE items ENABLE TRIGGER items_touch_updated_at;
