-- AlterEnum
ALTER TYPE "PaymentStatus" ADD VALUE 'capture_failed';

-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "capture_failed_at" TIMESTAMPTZ(3);
