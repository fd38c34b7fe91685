-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "paid_payment_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_paid_payment_id_key" ON "checkouts"("paid_payment_id");

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_paid_payment_id_fkey" FOREIGN KEY ("paid_payment_id") REFERENCES "payments"("id") ON DELETE SET NULL ON UPDATE CASCADE;
