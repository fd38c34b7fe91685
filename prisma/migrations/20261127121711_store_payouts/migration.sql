-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "payout_account" TEXT,
ADD COLUMN     "platform_fee_bps" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "store_ledger_entries" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "store_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "items_cents" INTEGER NOT NULL,
    "shipping_cents" INTEGER NOT NULL,
    "tax_cents" INTEGER NOT NULL,
    "fee_cents" INTEGER NOT NULL,
    "net_cents" INTEGER NOT NULL,
    "transfer_status" TEXT NOT NULL DEFAULT 'pending',
    "transfer_id" TEXT,
    "transfer_reason" TEXT,
    "transfer_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_transfer_at" TIMESTAMPTZ(3),
    "captured_at" TIMESTAMPTZ(3) NOT NULL,
    "transferred_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_transfers" (
    "id" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "source_payment_id" TEXT NOT NULL,
    "transfer_group" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "store_ledger_entries_store_id_captured_at_idx" ON "store_ledger_entries"("store_id", "captured_at");

-- CreateIndex
CREATE INDEX "store_ledger_entries_transfer_status_next_transfer_at_idx" ON "store_ledger_entries"("transfer_status", "next_transfer_at");

-- CreateIndex
CREATE UNIQUE INDEX "store_ledger_entries_order_id_kind_key" ON "store_ledger_entries"("order_id", "kind");

-- CreateIndex
CREATE INDEX "sandbox_transfers_destination_created_at_idx" ON "sandbox_transfers"("destination", "created_at");

-- AddForeignKey
ALTER TABLE "store_ledger_entries" ADD CONSTRAINT "store_ledger_entries_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_ledger_entries" ADD CONSTRAINT "store_ledger_entries_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_ledger_entries" ADD CONSTRAINT "store_ledger_entries_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A fee is a share of the items: 0 to 100.00 %.
ALTER TABLE "stores" ADD CONSTRAINT "stores_platform_fee_bps_range" CHECK ("platform_fee_bps" BETWEEN 0 AND 10000);

-- A ledger row adds up: the store's net is what the person paid it less the platform's fee.
ALTER TABLE "store_ledger_entries" ADD CONSTRAINT "store_ledger_entries_net_adds_up" CHECK ("net_cents" = "items_cents" + "shipping_cents" + "tax_cents" - "fee_cents");
ALTER TABLE "store_ledger_entries" ADD CONSTRAINT "store_ledger_entries_transfer_status" CHECK ("transfer_status" IN ('pending', 'transferred'));

-- The sandbox catalogue's stores (the seed names them <slug>.shops.example.ca) were made before
-- stores had payout accounts: each is connected to its sandbox account, as the seed now does, so
-- they keep selling. Any other store must be connected with `ops store:connect`.
UPDATE "stores" SET "payout_account" = 'acct_sandbox_' || "slug"
  WHERE "payout_account" IS NULL AND "url" = 'https://' || "slug" || '.shops.example.ca';
