-- AlterTable
ALTER TABLE "persons" ADD COLUMN     "language" TEXT;

-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "buyer_language" TEXT;

-- Only the two languages the pages and emails exist in.
ALTER TABLE "persons" ADD CONSTRAINT "persons_language_check" CHECK ("language" IN ('en', 'fr'));
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_buyer_language_check" CHECK ("buyer_language" IN ('en', 'fr'));
