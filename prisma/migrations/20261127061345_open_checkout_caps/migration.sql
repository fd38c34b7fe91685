-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "created_from_address" TEXT;

-- CreateIndex
CREATE INDEX "checkouts_created_from_address_idx" ON "checkouts"("created_from_address");
