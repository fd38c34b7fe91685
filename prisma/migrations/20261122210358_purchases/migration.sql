-- CreateEnum
CREATE TYPE "PurchaseStatus" AS ENUM ('processing', 'held', 'capturing', 'paid', 'requires_person', 'refused', 'cancelled', 'refunded');

-- CreateTable
CREATE TABLE "purchases" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "status" "PurchaseStatus" NOT NULL DEFAULT 'processing',
    "reason" TEXT,
    "cancelled_by" TEXT,
    "order_number" TEXT,
    "email" TEXT NOT NULL,
    "grand_total_cents" INTEGER NOT NULL,
    "charges_at" TIMESTAMPTZ(3),
    "cancel_until" TIMESTAMPTZ(3) NOT NULL,
    "held_at" TIMESTAMPTZ(3),
    "capturing_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "purchases_quote_id_key" ON "purchases"("quote_id");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_order_number_key" ON "purchases"("order_number");

-- CreateIndex
CREATE INDEX "purchases_status_charges_at_idx" ON "purchases"("status", "charges_at");

-- CreateIndex
CREATE INDEX "purchases_status_updated_at_idx" ON "purchases"("status", "updated_at");

-- CreateIndex
CREATE INDEX "purchases_person_id_created_at_idx" ON "purchases"("person_id", "created_at");

-- CreateIndex
CREATE INDEX "purchases_client_id_idx" ON "purchases"("client_id");

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
