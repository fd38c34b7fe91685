-- Custom SQL (ADR 0133). A hold takes a quantity-one item's last unit and a release gives it back:
-- each is one variant updated, and the statement-level trigger of the previous migration cost about
-- 0.4 ms on each (its transition tables, and SQL functions planned at every call), against 0.03 ms
-- for the update itself. Updates now go through a row trigger that runs only when the variant's
-- "quantity left" flips or it moves to another item (its WHEN clause is checked without a call), and
-- the refresh functions are PL/pgSQL, whose plans are kept: about 0.26 ms a flip, half of it the
-- item's own update (0.12 ms with its own triggers). Inserts and deletes, which come in bulk (a
-- store's listings, the seed), keep the statement-level triggers.

CREATE OR REPLACE FUNCTION items_refresh_cover(item_ids int[]) RETURNS void AS $$
BEGIN
  UPDATE items i SET cover_url = c.url
  FROM (SELECT x.id, (SELECT m.url FROM item_images m WHERE m.item_id = x.id AND m.is_cover
                      ORDER BY m.position, m.id LIMIT 1) AS url
        FROM unnest(item_ids) AS x(id)) c
  WHERE i.id = c.id AND i.cover_url IS DISTINCT FROM c.url;
END
$$ LANGUAGE plpgsql;

-- The items whose availability is not what their variants say are flipped: the rule once, and a
-- plan without a join (0.26 ms a flip against 0.33 ms for the previous shape, as a row trigger).
CREATE OR REPLACE FUNCTION items_refresh_availability(item_ids int[]) RETURNS void AS $$
BEGIN
  UPDATE items i SET is_available = NOT i.is_available
  WHERE i.id = ANY(item_ids)
    AND i.is_available IS DISTINCT FROM EXISTS (SELECT 1 FROM variants v WHERE v.item_id = i.id AND v.quantity > 0);
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION variant_refresh_item_availability() RETURNS trigger AS $$
BEGIN
  PERFORM items_refresh_availability(CASE WHEN OLD.item_id = NEW.item_id THEN ARRAY[NEW.item_id]
                                          ELSE ARRAY[OLD.item_id, NEW.item_id] END);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER variants_refresh_availability_update ON variants;
CREATE TRIGGER variants_refresh_availability_update AFTER UPDATE OF quantity, item_id ON variants
  FOR EACH ROW WHEN ((OLD.quantity > 0) IS DISTINCT FROM (NEW.quantity > 0) OR OLD.item_id IS DISTINCT FROM NEW.item_id)
  EXECUTE FUNCTION variant_refresh_item_availability();
