-- CreateEnum
CREATE TYPE "PriceWatchGroupStatus" AS ENUM ('active', 'executing', 'fulfilled', 'needs_you', 'cancelled', 'expired');

-- CreateEnum
CREATE TYPE "SearchWatchMode" AS ENUM ('notify', 'buy');

-- CreateEnum
CREATE TYPE "SearchWatchStatus" AS ENUM ('active', 'executing', 'fulfilled', 'needs_you', 'cancelled', 'expired');

-- DropIndex
DROP INDEX "price_change_events_item_id_idx";

-- AlterTable
ALTER TABLE "price_watches" ADD COLUMN     "drop_percent" INTEGER,
ADD COLUMN     "group_id" TEXT;

-- AlterTable
ALTER TABLE "price_change_events" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'price';

-- AlterTable
ALTER TABLE "price_alerts" ADD COLUMN     "drop_percent" INTEGER;

-- CreateTable
CREATE TABLE "price_watch_evaluations" (
    "id" SERIAL NOT NULL,
    "watch_id" INTEGER NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "total_cents" INTEGER,
    "outcome" TEXT NOT NULL,
    "failed_condition" TEXT,

    CONSTRAINT "price_watch_evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_watch_groups" (
    "id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "max_total_cents" INTEGER NOT NULL,
    "status" "PriceWatchGroupStatus" NOT NULL DEFAULT 'active',
    "outcome" TEXT,
    "claimed_watch_id" INTEGER,
    "purchase_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_watch_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_watches" (
    "id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "mode" "SearchWatchMode" NOT NULL,
    "filters" JSONB NOT NULL,
    "max_total_cents" INTEGER,
    "status" "SearchWatchStatus" NOT NULL DEFAULT 'active',
    "outcome" TEXT,
    "item_id" INTEGER,
    "quote_id" TEXT,
    "purchase_id" TEXT,
    "order_number" TEXT,
    "last_emailed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "search_watches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_watch_matches" (
    "search_watch_id" TEXT NOT NULL,
    "item_id" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "matched_at" TIMESTAMPTZ(3) NOT NULL,
    "emailed_at" TIMESTAMPTZ(3),

    CONSTRAINT "search_watch_matches_pkey" PRIMARY KEY ("search_watch_id","item_id")
);

-- CreateIndex
CREATE INDEX "price_watch_evaluations_watch_id_evaluated_at_id_idx" ON "price_watch_evaluations"("watch_id", "evaluated_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "price_watch_groups_purchase_id_key" ON "price_watch_groups"("purchase_id");

-- CreateIndex
CREATE INDEX "price_watch_groups_person_id_created_at_id_idx" ON "price_watch_groups"("person_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "price_watch_groups_status_expires_at_idx" ON "price_watch_groups"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "search_watches_purchase_id_key" ON "search_watches"("purchase_id");

-- CreateIndex
CREATE INDEX "search_watches_person_id_created_at_id_idx" ON "search_watches"("person_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "search_watches_status_expires_at_idx" ON "search_watches"("status", "expires_at");

-- CreateIndex
CREATE INDEX "search_watches_status_claimed_at_idx" ON "search_watches"("status", "claimed_at");

-- CreateIndex
CREATE INDEX "search_watch_matches_emailed_at_search_watch_id_idx" ON "search_watch_matches"("emailed_at", "search_watch_id");

-- CreateIndex
CREATE INDEX "price_watches_group_id_idx" ON "price_watches"("group_id");

-- CreateIndex
CREATE INDEX "price_change_events_item_id_created_at_idx" ON "price_change_events"("item_id", "created_at");

-- AddForeignKey
ALTER TABLE "price_watches" ADD CONSTRAINT "price_watches_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "price_watch_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_watch_evaluations" ADD CONSTRAINT "price_watch_evaluations_watch_id_fkey" FOREIGN KEY ("watch_id") REFERENCES "price_watches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_watch_groups" ADD CONSTRAINT "price_watch_groups_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_watch_groups" ADD CONSTRAINT "price_watch_groups_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_watches" ADD CONSTRAINT "search_watches_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_watches" ADD CONSTRAINT "search_watches_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_watch_matches" ADD CONSTRAINT "search_watch_matches_search_watch_id_fkey" FOREIGN KEY ("search_watch_id") REFERENCES "search_watches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_watch_matches" ADD CONSTRAINT "search_watch_matches_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written checks (Prisma cannot declare them)
ALTER TABLE "price_watches" ADD CONSTRAINT "price_watches_drop_percent_check" CHECK ("drop_percent" IS NULL OR "drop_percent" BETWEEN 1 AND 90);
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_drop_percent_check" CHECK ("drop_percent" IS NULL OR "drop_percent" BETWEEN 1 AND 90);
ALTER TABLE "price_change_events" ADD CONSTRAINT "price_change_events_kind_check" CHECK ("kind" IN ('price', 'listed', 'available'));
ALTER TABLE "price_watch_groups" ADD CONSTRAINT "price_watch_groups_max_total_check" CHECK ("max_total_cents" > 0);
ALTER TABLE "search_watches" ADD CONSTRAINT "search_watches_buy_total_check" CHECK (("mode" = 'buy') = ("max_total_cents" IS NOT NULL) AND ("max_total_cents" IS NULL OR "max_total_cents" > 0));
ALTER TABLE "search_watch_matches" ADD CONSTRAINT "search_watch_matches_reason_check" CHECK ("reason" IN ('new_listing', 'price_change', 'back_in_stock'));
-- Matches still to be emailed, found without reading the emailed ones.
CREATE INDEX "search_watch_matches_pending_idx" ON "search_watch_matches" ("search_watch_id") WHERE "emailed_at" IS NULL;
