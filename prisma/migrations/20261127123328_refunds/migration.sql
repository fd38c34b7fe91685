-- DropIndex
DROP INDEX "store_ledger_entries_order_id_kind_key";

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancel_reason" TEXT,
ADD COLUMN     "cancelled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "store_ledger_entries" ADD COLUMN     "source_id" TEXT;
-- A sale row's source is its payment.
UPDATE "store_ledger_entries" SET "source_id" = "payment_id";
ALTER TABLE "store_ledger_entries" ALTER COLUMN "source_id" SET NOT NULL;

-- CreateTable
CREATE TABLE "refunds" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "processor_refund_id" TEXT,
    "failure_reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "succeeded_at" TIMESTAMPTZ(3),

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_refunds" (
    "id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_transfer_reversals" (
    "id" TEXT NOT NULL,
    "transfer_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_transfer_reversals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "refunds_processor_refund_id_key" ON "refunds"("processor_refund_id");

-- CreateIndex
CREATE INDEX "refunds_order_id_idx" ON "refunds"("order_id");

-- CreateIndex
CREATE INDEX "refunds_status_next_attempt_at_idx" ON "refunds"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "sandbox_refunds_payment_id_idx" ON "sandbox_refunds"("payment_id");

-- CreateIndex
CREATE INDEX "sandbox_transfer_reversals_transfer_id_idx" ON "sandbox_transfer_reversals"("transfer_id");

-- CreateIndex
CREATE UNIQUE INDEX "store_ledger_entries_order_id_kind_source_id_key" ON "store_ledger_entries"("order_id", "kind", "source_id");

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A refund gives back a positive amount; its status is one of three.
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'));
