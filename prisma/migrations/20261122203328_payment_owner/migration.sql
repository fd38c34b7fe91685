-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "purchase_id" TEXT,
ALTER COLUMN "checkout_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "payment_method_id" TEXT,
ADD COLUMN     "refunded_cents" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "sandbox_payment_methods" (
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "card_number" TEXT NOT NULL,
    "card_last4" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sandbox_payment_methods_customer_id_idx" ON "sandbox_payment_methods"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_purchase_id_key" ON "payments"("purchase_id");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_payments_idempotency_key_key" ON "sandbox_payments"("idempotency_key");
