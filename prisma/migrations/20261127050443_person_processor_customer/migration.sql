-- AlterTable
ALTER TABLE "persons" ADD COLUMN     "processor_customer_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "persons_processor_customer_id_key" ON "persons"("processor_customer_id");
