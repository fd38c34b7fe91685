-- CreateTable
CREATE TABLE "saved_cards" (
    "person_id" TEXT NOT NULL,
    "processor_customer_id" TEXT NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" CHAR(4) NOT NULL,
    "exp_month" INTEGER NOT NULL,
    "exp_year" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_cards_pkey" PRIMARY KEY ("person_id")
);

-- AddForeignKey
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "persons"("id") ON DELETE CASCADE ON UPDATE CASCADE;
