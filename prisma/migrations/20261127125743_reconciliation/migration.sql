-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "captured_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "captured_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "reconciliation_reports" (
    "id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "ours" INTEGER NOT NULL,
    "processors" INTEGER NOT NULL,
    "matched" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reconciliation_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reconciliation_differences" (
    "id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "object_type" TEXT NOT NULL,
    "processor_id" TEXT,
    "our_id" TEXT,
    "our_amount_cents" INTEGER,
    "processor_amount_cents" INTEGER,

    CONSTRAINT "reconciliation_differences_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_reports_day_key" ON "reconciliation_reports"("day");

-- CreateIndex
CREATE INDEX "reconciliation_differences_report_id_idx" ON "reconciliation_differences"("report_id");

-- AddForeignKey
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reconciliation_reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Custom SQL: when a payment's money was captured, whichever path captured it (a checkout's
-- settlement, a purchase's charge, a Stripe event, the reconciliation). A trigger, so no writer can
-- forget it; clock_timestamp(), the moment of the write, as the processor's capture is.
CREATE FUNCTION payments_captured_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'captured' AND NEW.captured_at IS NULL THEN
    NEW.captured_at := clock_timestamp();
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER payments_captured_at BEFORE INSERT OR UPDATE OF status ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_captured_at();

-- Payments captured before: their last update is the nearest record of it.
UPDATE payments SET captured_at = updated_at WHERE status = 'captured' AND captured_at IS NULL;
UPDATE sandbox_payments SET captured_at = updated_at WHERE status = 'captured' AND captured_at IS NULL;
