-- CreateEnum
CREATE TYPE "PriceWatchStatus" AS ENUM ('active', 'executing', 'fulfilled', 'item_sold', 'needs_you', 'cancelled', 'expired');

-- CreateTable
CREATE TABLE "price_watches" (
    "id" SERIAL NOT NULL,
    "person_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "item_id" INTEGER NOT NULL,
    "max_price_cents" INTEGER NOT NULL,
    "max_total_cents" INTEGER NOT NULL,
    "status" "PriceWatchStatus" NOT NULL DEFAULT 'active',
    "outcome" TEXT,
    "over_total" BOOLEAN NOT NULL DEFAULT false,
    "quote_id" TEXT,
    "purchase_id" TEXT,
    "checkout_id" TEXT,
    "order_number" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_watches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_change_events" (
    "id" SERIAL NOT NULL,
    "item_id" INTEGER NOT NULL,
    "old_price_cents" INTEGER NOT NULL,
    "new_price_cents" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "price_change_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "price_watches_purchase_id_key" ON "price_watches"("purchase_id");

-- CreateIndex
CREATE INDEX "price_watches_item_id_status_idx" ON "price_watches"("item_id", "status");

-- CreateIndex
CREATE INDEX "price_watches_person_id_created_at_id_idx" ON "price_watches"("person_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "price_watches_status_expires_at_idx" ON "price_watches"("status", "expires_at");

-- CreateIndex
CREATE INDEX "price_watches_status_claimed_at_idx" ON "price_watches"("status", "claimed_at");

-- CreateIndex
CREATE INDEX "price_change_events_processed_at_id_idx" ON "price_change_events"("processed_at", "id");

-- CreateIndex
CREATE INDEX "price_change_events_item_id_idx" ON "price_change_events"("item_id");

-- AddForeignKey
ALTER TABLE "price_watches" ADD CONSTRAINT "price_watches_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_watches" ADD CONSTRAINT "price_watches_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_watches" ADD CONSTRAINT "price_watches_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_change_events" ADD CONSTRAINT "price_change_events_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
