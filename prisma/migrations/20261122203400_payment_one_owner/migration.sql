-- Custom SQL (Prisma cannot express it): a payment belongs to exactly one owner, a checkout or an
-- assistant purchase. A trigger rather than a CHECK constraint, because the drift test compares
-- constraints with the SQL Prisma writes for the snapshot, which cannot carry a CHECK.
CREATE FUNCTION payments_one_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF num_nonnulls(NEW.checkout_id, NEW.purchase_id) <> 1 THEN
    RAISE EXCEPTION 'a payment belongs to exactly one checkout or purchase (payment %)', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER payments_one_owner BEFORE INSERT OR UPDATE OF checkout_id, purchase_id ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_one_owner();
