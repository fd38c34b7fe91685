-- CreateEnum
CREATE TYPE "PriceAlertStatus" AS ENUM ('active', 'notified', 'stopped');

-- AlterTable
ALTER TABLE "stores" ALTER COLUMN "offers_price_alerts" SET DEFAULT true;

-- CreateTable
CREATE TABLE "price_alerts" (
    "id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "item_id" INTEGER NOT NULL,
    "target_price_cents" INTEGER NOT NULL,
    "status" "PriceAlertStatus" NOT NULL DEFAULT 'active',
    "notified_at" TIMESTAMPTZ(3),
    "notified_price_cents" INTEGER,
    "stopped_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "price_alerts_item_id_status_idx" ON "price_alerts"("item_id", "status");

-- CreateIndex
CREATE INDEX "price_alerts_person_id_created_at_id_idx" ON "price_alerts"("person_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "price_alerts_updated_at_idx" ON "price_alerts"("updated_at");

-- AddForeignKey
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
