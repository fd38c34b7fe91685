-- AlterTable
ALTER TABLE "sandbox_refunds" ADD COLUMN     "failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "failure_reason" TEXT;
