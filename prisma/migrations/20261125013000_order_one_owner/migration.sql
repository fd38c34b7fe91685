-- Custom SQL (Prisma cannot express it): a store order belongs to exactly one owner, a paid checkout
-- or an assistant purchase whose card is held. A trigger rather than a CHECK constraint, as for
-- payments (20261122203400_payment_one_owner): the drift test compares constraints with the SQL
-- Prisma writes for the snapshot, which cannot carry a CHECK.
CREATE FUNCTION orders_one_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF num_nonnulls(NEW.checkout_id, NEW.purchase_id) <> 1 THEN
    RAISE EXCEPTION 'an order belongs to exactly one checkout or purchase (order %)', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER orders_one_owner BEFORE INSERT OR UPDATE OF checkout_id, purchase_id ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_one_owner();
