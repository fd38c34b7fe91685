-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "purchase_id" TEXT,
ALTER COLUMN "checkout_id" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "orders_purchase_id_store_id_key" ON "orders"("purchase_id", "store_id");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
