-- AlterTable
ALTER TABLE "persons" ADD COLUMN     "purchases_paused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "purchases_paused_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "spending_limit_per_30_days_cents" INTEGER,
ADD COLUMN     "spending_limit_per_order_cents" INTEGER;
