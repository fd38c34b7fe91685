-- CreateEnum
CREATE TYPE "CheckoutStatus" AS ENUM ('awaiting_payment', 'paid', 'cancelled', 'expired');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('authorizing', 'requires_action', 'declined', 'authorized', 'captured', 'voided');

-- CreateEnum
CREATE TYPE "Fulfilment" AS ENUM ('processing', 'shipped');

-- CreateTable
CREATE TABLE "quotes" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "person_id" TEXT,
    "email" TEXT,
    "address" JSONB NOT NULL,
    "snapshot" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkouts" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "person_id" TEXT,
    "email" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "status" "CheckoutStatus" NOT NULL DEFAULT 'awaiting_payment',
    "selections" JSONB NOT NULL,
    "subtotal_cents" INTEGER NOT NULL,
    "discount_cents" INTEGER NOT NULL,
    "shipping_cents" INTEGER NOT NULL,
    "tax_cents" INTEGER NOT NULL,
    "grand_total_cents" INTEGER NOT NULL,
    "order_number" TEXT,
    "closed_reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkout_lines" (
    "id" SERIAL NOT NULL,
    "checkout_id" TEXT NOT NULL,
    "store_id" INTEGER NOT NULL,
    "item_id" INTEGER NOT NULL,
    "variant_id" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price_cents" INTEGER NOT NULL,

    CONSTRAINT "checkout_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "checkout_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "processor_payment_id" TEXT,
    "decline_code" TEXT,
    "card_last4" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "checkout_id" TEXT NOT NULL,
    "store_id" INTEGER NOT NULL,
    "person_id" TEXT,
    "email" TEXT NOT NULL,
    "shipping_key" TEXT NOT NULL,
    "shipping_label" TEXT NOT NULL,
    "subtotal_cents" INTEGER NOT NULL,
    "discount_cents" INTEGER NOT NULL,
    "shipping_cents" INTEGER NOT NULL,
    "tax_cents" INTEGER NOT NULL,
    "grand_total_cents" INTEGER NOT NULL,
    "tax_lines" JSONB NOT NULL,
    "fulfilment" "Fulfilment" NOT NULL DEFAULT 'processing',
    "carrier" TEXT,
    "tracking_number" TEXT,
    "shipped_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "scope" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "key" VARCHAR(64) NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "locked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("scope","operation","key")
);

-- CreateTable
CREATE TABLE "sandbox_payments" (
    "id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "card_last4" TEXT,
    "decline_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_processor_requests" (
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_processor_requests_pkey" PRIMARY KEY ("idempotency_key")
);

-- CreateIndex
CREATE INDEX "quotes_client_id_idx" ON "quotes"("client_id");

-- CreateIndex
CREATE INDEX "quotes_expires_at_idx" ON "quotes"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_order_number_key" ON "checkouts"("order_number");

-- CreateIndex
CREATE INDEX "checkouts_status_expires_at_idx" ON "checkouts"("status", "expires_at");

-- CreateIndex
CREATE INDEX "checkouts_client_id_idx" ON "checkouts"("client_id");

-- CreateIndex
CREATE INDEX "checkout_lines_checkout_id_idx" ON "checkout_lines"("checkout_id");

-- CreateIndex
CREATE INDEX "checkout_lines_variant_id_idx" ON "checkout_lines"("variant_id");

-- CreateIndex
CREATE INDEX "payments_status_updated_at_idx" ON "payments"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "payments_checkout_id_attempt_key" ON "payments"("checkout_id", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "orders_number_key" ON "orders"("number");

-- CreateIndex
CREATE INDEX "orders_person_id_created_at_idx" ON "orders"("person_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "orders_checkout_id_store_id_key" ON "orders"("checkout_id", "store_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_lines" ADD CONSTRAINT "checkout_lines_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
