-- AlterTable
ALTER TABLE "refunds" ADD COLUMN     "failed_at" TIMESTAMPTZ(3);
