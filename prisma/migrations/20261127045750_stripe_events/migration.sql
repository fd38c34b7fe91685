-- CreateTable
CREATE TABLE "stripe_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "object_id" TEXT,
    "payment_intent_id" TEXT,
    "stripe_created_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "processed_at" TIMESTAMPTZ(3),
    "outcome" TEXT,

    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stripe_events_payment_intent_id_idx" ON "stripe_events"("payment_intent_id");

-- CreateIndex
CREATE INDEX "payments_processor_payment_id_idx" ON "payments"("processor_payment_id");
